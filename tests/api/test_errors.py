"""Every error under /api/v1, ours or Flask's, has the one JSON shape the document describes;
the web pages keep their HTML error pages."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.api.conftest import API, bearer


@pytest.fixture
def error_schema(client):
    """A validator of the document's Error schema (refs resolved within the document)."""
    spec = client.get(f"{API}/openapi.json").get_json()
    return Draft202012Validator({**spec, "$ref": "#/components/schemas/Error"})


def check(response, status: int, code: str, error_schema) -> dict:
    assert response.status_code == status
    assert response.mimetype == "application/json"
    body = response.get_json()
    error_schema.validate(body)
    assert body["error"]["status"] == status and body["error"]["code"] == code
    return body["error"]


def test_unknown_addresses_and_methods(rink, client, error_schema):
    check(client.get(f"{API}/nothing/here"), 404, "not_found", error_schema)
    check(client.get(API), 404, "not_found", error_schema)
    check(client.get(f"{API}/sessions/99999999999"), 404, "not_found", error_schema)
    response = client.delete(f"{API}/quizzes")
    check(response, 405, "method_not_allowed", error_schema)
    assert set(response.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}
    page = client.get("/nothing/here")
    assert page.status_code == 404 and page.mimetype == "text/html"


def test_missing_tokens(rink, client, error_schema):
    response = client.get(f"{API}/account")
    check(response, 401, "unauthorized", error_schema)
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="quiz"'


def test_bodies_that_are_not_json_or_not_valid(rink, client, new_player, error_schema):
    headers = new_player()
    url = f"{API}/quizzes/rink/attempts"
    check(client.post(url, headers=headers, data="length=all"), 415, "unsupported_media_type", error_schema)
    check(client.post(url, headers=headers, data="{", content_type="application/json"), 400, "invalid_json", error_schema)
    error = check(client.post(url, headers=headers, json={"length": 3, "colour": "red"}), 422, "invalid_request", error_schema)
    assert {(tuple(detail["loc"]), detail["type"]) for detail in error["details"]} == {
        (("body", "length"), "literal_error"), (("body", "colour"), "extra_forbidden"),
    }
    missing = check(client.post(f"{API}/live/join", headers=headers), 422, "invalid_request", error_schema)
    assert missing["details"] == [{"loc": ["body"], "type": "missing", "message": "A JSON body is required."}]
    check(client.get(f"{API}/quizzes?x=%00"), 400, "bad_request", error_schema)


def test_a_body_too_large(make_app, error_schema):
    app = make_app(MAX_CONTENT_LENGTH=200)
    client = app.test_client()
    response = client.post(f"{API}/players", json={"nickname": "x" * 500})
    check(response, 413, "payload_too_large", error_schema)


def test_an_unexpected_error_is_a_500_without_a_traceback(make_app, error_schema):
    app = make_app()

    def broken():
        raise RuntimeError("secret internals")

    app.add_url_rule(f"{API}/broken", "broken", broken)
    response = app.test_client().get(f"{API}/broken")
    error = check(response, 500, "internal_error", error_schema)
    assert "secret" not in response.get_data(as_text=True) and "Traceback" not in response.get_data(as_text=True)
    assert error["message"] == "Something went wrong on our side. Please try again."


def test_errors_of_the_views_themselves(rink, client, new_player, make_token, error_schema):
    headers = new_player()
    check(client.get(f"{API}/quizzes/nope"), 404, "not_found", error_schema)
    check(client.get(f"{API}/attempts/nope", headers=headers), 404, "not_found", error_schema)
    check(client.get(f"{API}/bank", headers=make_token("teacher")), 403, "forbidden", error_schema)
    check(client.get(f"{API}/account", headers=bearer("quiz_" + "x" * 43)), 401, "unauthorized", error_schema)
    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=headers).get_json()
    check(client.get(f"{API}/attempts/{attempt['id']}/results", headers=headers), 409, "attempt_unfinished", error_schema)
