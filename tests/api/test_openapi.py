"""The OpenAPI document: valid OpenAPI 3.1, and a faithful description of every API route."""

from __future__ import annotations

import re

from openapi_spec_validator import validate

from quiz import stats
from tests.api.conftest import API


def document(client) -> dict:
    response = client.get(f"{API}/openapi.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    return response.get_json()


def test_the_document_is_valid_openapi_3_1(client):
    spec = document(client)
    assert spec["openapi"] == "3.1.0"
    validate(spec)
    assert spec["servers"] == [{"url": "/api/v1"}]


def test_every_api_route_is_documented_and_every_documented_operation_exists(app, client):
    spec = document(client)
    routed = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(API + "/") and rule.endpoint != "api.openapi_document":
            path = re.sub(r"<(?:[^:>]+:)?(\w+)>", r"{\1}", rule.rule.removeprefix(API))
            routed |= {(path, method.lower()) for method in rule.methods - {"HEAD", "OPTIONS"}}
    documented = {(path, method) for path, item in spec["paths"].items() for method in item}
    assert routed == documented
    assert len(documented) >= 20


def test_every_operation_documents_its_errors_with_the_one_error_schema(client):
    spec = document(client)
    error_ref = {"$ref": "#/components/schemas/Error"}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            where = f"{method.upper()} {path}"
            statuses = {int(status) for status in operation["responses"]}
            assert any(200 <= status < 300 for status in statuses), where
            for status in statuses - set(range(200, 300)):
                assert operation["responses"][str(status)]["content"] == {"application/json": {"schema": error_ref}}, where
            assert 400 in statuses, where
            if operation["security"]:
                assert 401 in statuses, where
                assert "WWW-Authenticate" in operation["responses"]["401"]["headers"], where
            if "{" in path:
                assert 404 in statuses, where
            if "requestBody" in operation:
                assert {413, 415, 422} <= statuses, where
    assert "403" in spec["paths"]["/bank"]["get"]["responses"]
    assert "429" in spec["paths"]["/live/join"]["post"]["responses"]


def test_security_schemes_and_who_needs_which(client):
    spec = document(client)
    assert set(spec["components"]["securitySchemes"]) == {"playerToken", "apiToken"}
    security = {
        (path, method): operation["security"] for path, item in spec["paths"].items() for method, operation in item.items()
    }
    assert security[("/quizzes", "get")] == []
    assert security[("/players", "post")] == []
    assert security[("/attempts/{attempt_id}/questions/{position}/answer", "post")] == [{"playerToken": []}]
    assert security[("/live/join", "post")] == [{"playerToken": []}]
    assert security[("/quizzes/{quiz_id}/statistics", "get")] == [{"apiToken": []}]
    assert security[("/bank", "get")] == [{"apiToken": []}]


def test_request_bodies_refuse_unknown_fields_and_say_what_they_need(client):
    spec = document(client)
    schemas = spec["components"]["schemas"]
    body = spec["paths"]["/attempts/{attempt_id}/questions/{position}/answer"]["post"]["requestBody"]
    assert body["required"] is True
    answer = schemas[body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]]
    assert answer["additionalProperties"] is False and "required" not in answer
    # Exactly one of the answer's fields, the one the question's kind reads.
    assert answer["oneOf"] == [{"required": [name]} for name in ("choices", "order", "number", "text")]
    assert answer["properties"]["choices"]["items"] == {"maximum": 6, "minimum": 1, "type": "integer"}
    assert answer["properties"]["number"]["type"] == "number"
    start = spec["paths"]["/quizzes/{quiz_id}/attempts"]["post"]["requestBody"]
    assert start["required"] is False


def test_nothing_a_player_reads_before_answering_has_a_place_for_correctness(client):
    """The schemas of a question as asked have no field that could say which choice is right."""
    schemas = document(client)["components"]["schemas"]
    for name in ("Question", "LiveQuestion", "ShownChoice"):
        properties = set(schemas[name]["properties"])
        assert not properties & {"correct", "is_correct", "correct_choices", "explanation", "sources"}, name
    assert schemas["Question"]["properties"]["feedback"]["anyOf"][1] == {"type": "null"}


def test_query_parameters_are_described_from_their_models(client):
    parameters = {
        parameter["name"]: parameter
        for parameter in document(client)["paths"]["/quizzes/{quiz_id}/statistics"]["get"]["parameters"]
    }
    assert parameters["quiz_id"]["in"] == "path" and parameters["quiz_id"]["required"] is True
    assert parameters["solo_only"]["schema"] == {"default": False, "type": "boolean"}
    assert parameters["session_id"]["in"] == "query" and parameters["session_id"]["required"] is False
    bank = {parameter["name"]: parameter for parameter in document(client)["paths"]["/bank"]["get"]["parameters"]}
    assert bank["format"]["schema"]["enum"] == ["yaml", "gift", "moodle-xml", "csv"]


def test_the_document_and_the_behaviour_agree_on_nicknames_days_and_integers(rink, client, new_player, make_token):
    """Three places where they once disagreed: a nickname's length, a day written as a number,
    and 1.0, which JSON Schema counts as an integer."""
    spec = document(client)
    nickname = spec["components"]["schemas"]["SetNickname"]["properties"]["nickname"]
    assert 20 in [option.get("maxLength") for option in nickname.get("anyOf", [nickname])]
    headers = new_player()
    assert client.put(f"{API}/player", headers=headers, json={"nickname": "n" * 20}).status_code == 200
    assert client.put(f"{API}/player", headers=headers, json={"nickname": "n" * 21}).status_code == 422

    teacher = make_token("teacher")
    for day, status in [("0", 422), ("20260102", 422), ("2026-01-02", 200)]:
        response = client.get(f"{API}/quizzes/rink/statistics", headers=teacher, query_string={"started_until": day})
        assert response.status_code == status, day

    attempt = client.post(f"{API}/quizzes/rink/attempts", headers=headers, json={"length": "standard"}).get_json()
    response = client.post(f"{API}/attempts/{attempt['id']}/questions/1/answer", headers=headers, json={"choices": [1.0]})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["feedback"]["picked"] == [1]
    refused = client.post(f"{API}/attempts/{attempt['id']}/questions/2/answer", headers=headers, json={"choices": [1.5]})
    assert refused.status_code == 422
    for raw in (b'{"choices": [NaN]}', b'{"choices": [1'):
        response = client.post(f"{API}/attempts/{attempt['id']}/questions/2/answer", headers=headers, data=raw,
                               content_type="application/json")
        assert response.status_code == 400


def test_the_statistics_summary_documents_every_figure_the_pages_show(rink, client, make_token):
    schemas = document(client)["components"]["schemas"]
    summary = schemas["StatisticsSummary"]
    assert summary["additionalProperties"] is False
    returned = client.get(f"{API}/quizzes/rink/statistics", headers=make_token("teacher")).get_json()["summary"]
    assert set(summary["required"]) == set(summary["properties"]) == set(returned)
    assert {
        "median_seconds", "timed_attempts", "untimed_attempts", "longest_answer_seconds", "reliability_status",
        "reliability_min_attempts", "reliability_note", "min_answers_to_judge",
    } <= set(summary["properties"])
    assert summary["properties"]["reliability_status"]["enum"] == list(stats.RELIABILITY_STATUSES)
    for name in ("reliability_status", "timed_attempts", "untimed_attempts", "longest_answer_seconds"):
        assert summary["properties"][name]["description"], name
