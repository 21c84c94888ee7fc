"""Security headers on every page the app serves, found from its URL map with real ids: a strict
content security policy, no framing, no MIME sniffing, and HSTS whenever the page came over
HTTPS. Error pages and event streams too."""

from __future__ import annotations

from tests.hardening.conftest import database_rows

DIRECTIVES = ("default-src 'self'", "script-src 'self'", "style-src 'self'", "object-src 'none'",
              "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'")


def assert_secure_headers(response, where: str, *, https: bool) -> None:
    headers = response.headers
    policy = headers.get("Content-Security-Policy", "")
    directives = {part.strip() for part in policy.split(";")}
    assert set(DIRECTIVES) <= directives, f"{where}: {policy!r}"
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, where
    assert headers.get("X-Content-Type-Options") == "nosniff", where
    assert headers.get("X-Frame-Options") == "DENY", where
    assert headers.get("Referrer-Policy") == "same-origin", where
    if https:
        assert headers.get("Strict-Transport-Security", "").startswith("max-age=31536000"), where
    else:
        # Over plain HTTP a browser ignores HSTS; sending it there would only mislead.
        assert "Strict-Transport-Security" not in headers, where


def test_every_page_sends_the_security_headers_over_http_and_https(site):
    routes = site.rules("GET")
    assert len(routes) >= 30, [rule.rule for rule in routes]
    statuses = {}
    for rule in routes:
        url = site.url(rule)
        for https in (False, True):
            # Streams are not read: their headers are all there is to check.
            base_url = "https://localhost" if https else "http://localhost"
            response = site.browser.get(url, base_url=base_url, buffered=False)
            try:
                assert response.status_code < 500, url
                assert_secure_headers(response, url, https=https)
                statuses[url] = response.status_code
                if response.mimetype == "text/event-stream":
                    # Proxies must pass each event on at once, and never keep one.
                    assert response.headers["X-Accel-Buffering"] == "no", url
                    assert response.headers["Cache-Control"] == "no-store", url
            finally:
                response.close()
    # Real ids reach the real pages, not their 404s.
    assert [url for url, status in statuses.items() if status == 404] == []
    assert statuses[f"/live/{site.values['session_id']}/events"] == 200


def test_error_pages_send_the_security_headers_too(site):
    before = database_rows(site.app)
    refusals = [
        (site.browser.get("/no/such/page"), 404),
        (site.browser.delete("/"), 405),
        (site.browser.post("/player", data={"nickname": "x"}), 400),
        (site.browser.get("/quizzes/a%00b"), 400),
        (site.browser.post("/player", data={"nickname": "x" * (2 * 1024 * 1024)}), 413),
    ]
    for https in (False, True):
        response = site.browser.get("/no/such/page", base_url="https://localhost" if https else "http://localhost")
        assert_secure_headers(response, "404", https=https)
    for response, status in refusals:
        assert response.status_code == status
        assert_secure_headers(response, str(status), https=False)
    assert database_rows(site.app) == before
