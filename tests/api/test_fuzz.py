"""Fuzzing the API against its own OpenAPI document with schemathesis: for requests that fit the
document and requests that do not, no answer is a 5xx, and every answer (status, content type,
headers, body) is one the document describes.

Random ids only ever reach 404s, so half the requests use ids that exist (a quiz, an attempt
with its question, a live session with a question open, a revision) and the tokens of the
player and the admin who own them. Generation is derandomized and bounded, so a run takes
seconds and fails the same way twice.
"""

from __future__ import annotations

import itertools
import re

import schemathesis
import sqlalchemy as sa
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from quiz import accounts, live, play, tokens
from quiz.bank import load_bank
from quiz.bank.importer import import_bank
from quiz.extensions import db
from quiz.models import QuestionRevision, Quiz
from tests.api.conftest import BANK, PASSWORD
from tests.answers import answer_solo

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    ignored_auth,
    negative_data_rejection,
]
#: Requests per operation: enough to reach every branch the known ids open, in seconds.
EXAMPLES = 40


def seed(app, write_bank) -> tuple[dict[str, list], dict[str, dict[str, str]]]:
    """Ids that exist, for each path parameter, and the Authorization header of each security
    scheme: a player with an attempt under way and a finished one, in a classroom session with
    a question open, and the admin who hosts it."""
    with app.app_context():
        import_bank(db.session, load_bank(write_bank(BANK)))
        quiz = db.session.scalar(sa.select(Quiz))
        admin = accounts.create_user(db.session, "root", PASSWORD, "admin")
        _record, admin_token = tokens.create_token(db.session, admin, "fuzzing")
        player = play.create_player(db.session)
        under_way = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL)
        finished = play.start_attempt(db.session, player, quiz, length=play.LENGTH_ALL)
        for position in range(1, finished.question_count + 1):
            answer_solo(finished, position, [1])
        session = live.create_session(db.session, admin, quiz, live.Settings(time_limit=240, scoring="plain"))
        live.join(db.session, session, player, "Fuzz")
        live.start(db.session, session)
        revision_id = db.session.scalar(sa.select(QuestionRevision.id).limit(1))
        db.session.commit()
        known = {
            "quiz_id": [quiz.slug], "attempt_id": [under_way.public_id, finished.public_id], "position": [1, 2],
            "session_id": [session.id], "revision_id": [revision_id],
        }
        headers = {
            "playerToken": {"Authorization": f"Bearer {player.token}"},
            "apiToken": {"Authorization": f"Bearer {admin_token}"},
        }
    return known, headers


def test_every_answer_matches_the_document_and_none_is_a_server_error(make_app, write_bank):
    app = make_app()
    known, auth = seed(app, write_bank)
    document = app.test_client().get("/api/v1/openapi.json").get_json()
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == sum(len(item) for item in document["paths"].values())
    for operation in operations:
        security = document["paths"][operation.path][operation.method.lower()]["security"]
        headers = auth[next(iter(security[0]))] if security else {}
        names = re.findall(r"\{(\w+)\}", operation.path)
        # Every combination of known ids, then ids as the document allows them.
        combinations = [dict(zip(names, values)) for values in itertools.product(*(known[name] for name in names))]
        strategies = [
            operation.as_strategy(GenerationMode.POSITIVE, headers=headers, path_parameters=path or None)
            for path in combinations
        ]
        strategies.append(operation.as_strategy(GenerationMode.POSITIVE, headers=headers))
        strategies += [
            operation.as_strategy(GenerationMode.NEGATIVE, headers=headers, path_parameters=path or None)
            for path in combinations
        ]
        _fuzz(st.one_of(strategies))


def _fuzz(strategy) -> None:
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        # Generation filters out what no request can carry (a NUL in a header, say); that is fine.
        suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(case=strategy)
    def run(case) -> None:
        case.call_and_validate(checks=CHECKS)

    run()
