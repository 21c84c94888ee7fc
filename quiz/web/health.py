"""``/healthz``: whether this server can answer, for load balancers and process supervisors."""

from __future__ import annotations

import sqlalchemy as sa
from flask import Blueprint, current_app

from quiz.extensions import db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """200 when the database answers a query, 503 when it does not."""
    try:
        db.session.execute(sa.text("SELECT 1"))
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        current_app.logger.exception("health check: the database does not answer")
        return {"status": "unavailable", "database": "unreachable"}, 503, {"Cache-Control": "no-store"}
    return {"status": "ok", "database": "ok"}, 200, {"Cache-Control": "no-store"}
