"""``/healthz``: whether this server can answer, for load balancers and process supervisors."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, current_app
from limits.storage import MemoryStorage, Storage

from quiz.extensions import db, limiter

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """200 when the database answers a query, 503 when it does not.

    A rate limit storage (Redis) that does not answer makes the status "degraded", still with
    200: the server goes on serving, counting rate limits in its own memory, and a load
    balancer that took every server out because their shared Redis is down would take the
    whole app down with it.
    """
    headers = {"Cache-Control": "no-store"}
    try:
        db.session.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        current_app.logger.exception("health check: the database does not answer")
        return {"status": "unavailable", "database": "unreachable"}, 503, headers
    rate_limits = rate_limit_storage_state(limiter.storage)
    status = "degraded" if rate_limits == "unreachable" else "ok"
    return {"status": status, "database": "ok", "rate_limits": rate_limits}, 200, headers


def rate_limit_storage_state(storage: Storage) -> str:
    """"ok" when the shared storage answers, "unreachable" when it does not (limits are then
    counted per process), "memory" when counting per process is how the app is configured."""
    if isinstance(storage, MemoryStorage):
        return "memory"
    return "ok" if storage.check() else "unreachable"
