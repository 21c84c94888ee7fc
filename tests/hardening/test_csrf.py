"""Every form refuses a request without its CSRF token, or with a wrong one, and changes nothing.

The routes come from the app's URL map, so a form added later is covered without touching
this file; a new kind of URL argument only needs a real value in ``conftest.Site``.
"""

from __future__ import annotations

from tests.conftest import csrf_token
from tests.hardening.conftest import TOKEN_AUTHENTICATED_PREFIX, database_rows

CHANGING_METHODS = ("POST", "PUT", "PATCH", "DELETE")
EXPIRED = "This form has expired"


def test_every_form_refuses_a_missing_or_wrong_token_and_changes_nothing(site):
    routes = [rule for rule in site.rules(*CHANGING_METHODS) if not rule.rule.startswith(TOKEN_AUTHENTICATED_PREFIX)]
    # Enough to know the enumeration found the app's forms, not nothing.
    assert {"play.start", "play.question", "live.join", "live.answer", "auth.login", "admin.apply"} <= {
        rule.endpoint for rule in routes
    }
    # A real token, but of another browser's session.
    foreign = csrf_token(site.app.test_client().get("/login").get_data(as_text=True))
    own = csrf_token(site.browser.get("/player").get_data(as_text=True))
    # A page of another site posting in the browser's name sends its cookie, not its token.
    attempts = [("no token", site.browser, None), ("a garbled token", site.browser, own[:-4] + "AAAA"),
                ("another browser's token", site.browser, foreign), ("no cookie", site.app.test_client(), foreign)]
    before = database_rows(site.app)
    for rule in routes:
        url = site.url(rule)
        for method in sorted(set(CHANGING_METHODS) & rule.methods):
            for label, client, token in attempts:
                # Plausible fields, so that only the token is wrong.
                data = {"choice": "1", "nickname": "Ana", "code": "123456", "action": "start", "username": "admin",
                        "password": "x", "length": "standard"}
                if token is not None:
                    data["csrf_token"] = token
                response = client.open(url, method=method, data=data)
                assert response.status_code == 400, f"{method} {url} with {label}: {response.status_code}"
                assert EXPIRED in response.get_data(as_text=True), f"{method} {url} with {label}"
    assert database_rows(site.app) == before
    # The browser is still logged in and playing: the refusals ended nothing.
    assert site.browser.get("/admin/").status_code == 200
    assert site.browser.get(f"/live/{site.values['session_id']}").status_code == 200
