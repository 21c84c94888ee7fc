"""Logging teachers and admins in and out, and the decorator that guards their pages.

Flask-Login keeps :func:`quiz.accounts.session_id` in the signed session cookie. That id holds
the user's session version, which logout, a new password and disabling all bump: a copy of the
cookie taken before then names a version that no longer exists, and is refused.
"""

from __future__ import annotations

import functools
import secrets
import time

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_login import AnonymousUserMixin, current_user, login_user, logout_user

from quiz import accounts
from quiz.extensions import db, limiter, login_manager
from quiz.forms import ConfirmForm, LoginForm
from quiz.models import User
from quiz.web.redirects import local_path

bp = Blueprint("auth", __name__)

WRONG_CREDENTIALS = _l("Wrong username or password.")


class LoginUser:
    """What Flask-Login needs from a user, around a :class:`quiz.models.User` (``.user``)."""

    is_authenticated = True
    is_anonymous = False

    def __init__(self, user: User) -> None:
        self.user = user

    @property
    def is_active(self) -> bool:
        return self.user.active

    def get_id(self) -> str:
        return accounts.session_id(self.user)


class AnonymousUser(AnonymousUserMixin):
    """Nobody logged in; ``current_user.user`` is None, so templates need no extra test."""

    user = None


login_manager.anonymous_user = AnonymousUser
login_manager.login_view = "auth.login"
login_manager.login_message = _l("Log in to see this page.")
# Flashed as a plain string in the visitor's language: the session cookie holds no lazy text.
login_manager.localize_callback = str
# Flask-Login's "basic" protection writes ``_fresh = False`` into every session it cannot match
# to a login, i.e. into every player's cookie on every rendered page. Sessions are ended by the
# session version instead, and nothing here asks for a fresh login.
login_manager.session_protection = None


@login_manager.user_loader
def _load_user(session_id: str) -> LoginUser | None:
    # Flask-Login also calls this for a remember-me cookie; we never issue one, and such a
    # cookie carries no login time, so it is refused here.
    logged_in_at = session.get("login_at")
    if not isinstance(logged_in_at, int) or time.time() - logged_in_at > current_app.config["LOGIN_MAX_AGE"]:
        return None
    user = accounts.user_by_session_id(db.session, session_id)
    return LoginUser(user) if user is not None else None


def role_required(*roles: str):
    """Let through only users with one of ``roles``: others get 403, anonymous visitors are sent
    to the login page. Roles are not ranked: list every role a view admits."""
    unknown = set(roles) - set(accounts.ROLES)
    if not roles or unknown:
        raise ValueError(f"role_required needs roles among {accounts.ROLES}, got {roles!r}")

    def decorator(view):
        @functools.wraps(view)
        def guarded(*args, **kwargs):
            if not current_user.is_authenticated:
                return login_manager.unauthorized()
            if current_user.user.role not in roles:
                abort(403)
            return view(*args, **kwargs)

        return guarded

    return decorator


def _submitted_username() -> str:
    """Rate limit key: the account being tried, however it is spelled."""
    # No account has a longer name: overlong variants share one key instead of filling storage.
    name = accounts.normalize_username(request.form.get("username", ""))[: accounts.USERNAME_MAX_LENGTH + 1]
    return f"username:{name}"


def _client_address() -> str:
    """Rate limit key: the client. Behind a proxy this needs ProxyFix to be the real client."""
    return f"address:{request.remote_addr or 'unknown'}"


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(
    lambda: current_app.config["LOGIN_LIMIT_PER_USERNAME"], key_func=_submitted_username, methods=["POST"]
)
@limiter.limit(lambda: current_app.config["LOGIN_LIMIT_PER_ADDRESS"], key_func=_client_address, methods=["POST"])
def login():
    back = local_path(request.values.get("next"))
    form = LoginForm()
    if request.method == "GET":
        if current_user.is_authenticated:
            return redirect(back or url_for("play.home"), 303)
        return render_template("auth/login.html", form=form, back=back)
    if not form.validate():
        return render_template("auth/login.html", form=form, back=back), 422
    user = accounts.authenticate(db.session, form.username.data, form.password.data)
    if user is None:
        # The same answer for an unknown user, a wrong password and a disabled account.
        return render_template("auth/login.html", form=form, back=back, error=WRONG_CREDENTIALS)
    _start_login_session(user)
    return redirect(back or url_for("play.home"), 303)


def _start_login_session(user: User) -> None:
    # A fresh session: nothing chosen before login (a planted cookie, the old CSRF secret)
    # carries over into the logged-in one.
    session.clear()
    login_user(LoginUser(user), remember=False)
    # A random id for this login alone, e.g. to tell one device's session from another in logs.
    session["sid"] = secrets.token_urlsafe(16)
    session["login_at"] = int(time.time())
    session.permanent = True


@bp.get("/logout")
def logout_page():
    """A page with the logout button, for browsers that reach /logout by a link."""
    if not current_user.is_authenticated:
        return redirect(url_for(".login"), 303)
    return render_template("auth/logout.html")


@bp.post("/logout")
def logout():
    if not ConfirmForm().validate():
        abort(400)
    if current_user.is_authenticated:
        # Ends this user's sessions everywhere, and makes copies of this cookie worthless.
        accounts.end_sessions(db.session, current_user.user)
    logout_user()
    session.pop("sid", None)
    session.pop("login_at", None)
    flash(_("You are logged out."))
    return redirect(url_for(".login"), 303)
