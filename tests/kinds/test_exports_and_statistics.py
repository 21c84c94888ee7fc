"""The kinds beyond choices in the bank's exports (YAML round trip, GIFT, Moodle XML, CSV) and in
statistics."""

from __future__ import annotations

import csv
import io
import random

import pytest
import sqlalchemy as sa
from defusedxml.ElementTree import fromstring

from quiz import play, stats
from quiz.bank import parse_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from quiz.formats import csv_format, gift, moodle_xml
from quiz.formats.outgoing import left_out
from quiz.models import Quiz
from tests.answers import play_through


@pytest.fixture
def document(kinds_app):
    with kinds_app.app_context():
        return export_document(db.session)


def test_the_yaml_export_of_every_kind_imports_as_exactly_the_same_questions(kinds_app, document):
    bank = parse_bank(dump_yaml(document).encode(), "export.yaml", base_dir=None)
    with kinds_app.app_context():
        report = import_bank(db.session, bank)
        assert not report.changes_anything, report.lines()


def test_gift_writes_typed_answers_and_numbers_and_leaves_out_what_it_cannot_carry(document):
    text = gift.write(document).decode()
    assert "::coach::[plain]Who was the rink's first coach? {\n\t=Marie Tremblay\n\t=Tremblay\n" in text
    assert "::spectators::[plain]How many spectators does the rink hold? {#1200:50####" in text
    assert "// difficulty: medium; unit: spectators" in text
    assert "::timeline::" not in text and "::favourite::" not in text
    assert left_out(document, "gift") == [("timeline", "ordering"), ("favourite", "poll")]
    # What GIFT carries reads back as it was written.
    read = {entry["id"]: entry for entry in gift.read(text.encode(), "rink.gift").entries}
    assert list(read) == ["opened", "spectators", "coach", "city"]
    assert (read["spectators"]["answer"], read["spectators"]["tolerance"]) == (1200, 50)
    assert read["coach"]["accept"] == ["Marie Tremblay", "Tremblay"]


def test_moodle_xml_writes_short_answers_numbers_and_orderings(document):
    root = fromstring(moodle_xml.write(document))
    by_name = {element.findtext("name/text"): element for element in root.iter("question") if element.find("name") is not None}
    assert {name: element.get("type") for name, element in by_name.items()} == {
        "opened": "multichoice", "timeline": "ordering", "spectators": "numerical", "coach": "shortanswer",
        "city": "truefalse",
    }
    coach = by_name["coach"]
    assert coach.findtext("usecase") == "0"
    assert [(answer.findtext("text"), answer.get("fraction")) for answer in coach.findall("answer")] == [
        ("Marie Tremblay", "100"), ("Tremblay", "100")
    ]
    spectators = by_name["spectators"]
    answer = spectators.find("answer")
    assert (answer.findtext("text"), answer.findtext("tolerance"), answer.get("fraction")) == ("1200", "50", "100")
    assert spectators.findtext("units/unit/unit_name") == "spectators"
    timeline = by_name["timeline"]
    assert timeline.findtext("gradingtype") == "ABSOLUTE_POSITION" and timeline.findtext("selecttype") == "ALL"
    # Moodle's ordering question lists its items in the right order, each's fraction its place.
    assert [(answer.findtext("text"), float(answer.get("fraction"))) for answer in timeline.findall("answer")] == [
        ("The rink opens", 1.0), ("The rink is rebuilt", 2.0), ("A second sheet of ice is added", 3.0)
    ]


def test_csv_has_a_row_for_every_kind(document):
    rows = list(csv.DictReader(io.StringIO(csv_format.write(document).decode("utf-8-sig"))))
    correct = {row["id"]: row["correct"] for row in rows}
    assert correct == {
        "opened": "2", "timeline": "1,2,3", "spectators": "1200 spectators (give or take 50)",
        "coach": "Marie Tremblay / Tremblay", "favourite": "", "city": "1",
    }
    assert [rows[1][f"choice {n}"] for n in (1, 2, 3)] == [
        "The rink opens", "The rink is rebuilt", "A second sheet of ice is added"
    ]


def test_statistics_tally_each_kind_and_leave_polls_unjudged(kinds_app):
    with kinds_app.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == "rink"))
        rng = random.Random(2)
        for right in (6, 6, 3, 0):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=rng)
            play_through(attempt, right=right)
        db.session.commit()
        figures = stats.quiz_stats(db.session, quiz)
        items = {item.slug: item for item in figures.items}
        assert figures.attempts_finished == 4
        # Scores are out of the five questions that can be right or wrong.
        assert figures.reliability_length == 5
        poll = items["favourite"]
        assert (poll.facility, poll.discrimination, poll.reasons) == (None, None, [])
        assert poll.tally.caption == "Votes" and poll.tally.total == 4
        timeline = items["timeline"]
        assert timeline.tally.caption == "Put in the right place"
        assert 0 < timeline.mean_credit < 1 and timeline.facility == timeline.right / timeline.answers
        assert {row.label for row in items["coach"].tally.rows} == {"Marie Tremblay", "certainly not this"}
        assert sum(row.count for row in items["spectators"].tally.rows) + items["spectators"].tally.others == 4
        rows = stats.table_rows(figures, "choices")
        assert ["coach", 1, "Marie Tremblay", "yes"] in [row[:4] for row in rows]
        document = stats.as_json(figures)
        assert next(q for q in document["questions"] if q["question"] == "favourite")["tally"]["caption"] == "Votes"
