"""The statistics pages in Canadian French: their words, numbers written the French way (decimal
comma, a non-breaking space before % and s), charts labelled in French, and the JSON figures
left in English, as the API gives them."""

from __future__ import annotations

import random
import re

import pytest
import sqlalchemy as sa
from defusedxml import ElementTree

from quiz import play
from quiz.extensions import db
from quiz.models import Quiz
from tests.answers import answer_solo
from tests.web.live_helpers import QUIZ_SLUG, log_in

FRENCH = {"Accept-Language": "fr-CA"}
NBSP = "\u00a0"


def play_solo(app, attempts: int, right: float, seed: int = 3) -> None:
    """``attempts`` finished solo attempts on the bundled quiz, each answer right with chance ``right``."""
    rng = random.Random(seed)
    with app.app_context():
        quiz = db.session.scalar(sa.select(Quiz).where(Quiz.slug == QUIZ_SLUG))
        for _ in range(attempts):
            attempt = play.start_attempt(db.session, play.create_player(db.session), quiz, rng=rng)
            for position in range(1, attempt.question_count + 1):
                answer_solo(attempt, position, right=rng.random() < right)
        db.session.commit()


def chart(page: str, chart_id: str):
    markup = re.search(rf'<svg\b[^>]*aria-labelledby="{chart_id}-title.*?</svg>', page, re.S).group(0)
    return ElementTree.fromstring(markup)


def texts(svg, css: str) -> list[str]:
    return [element.text for element in svg.iter("text") if css in (element.get("class") or "").split()]


@pytest.fixture
def teacher(bundled):
    play_solo(bundled, 40, right=0.6)
    return log_in(bundled, "teacher")


def test_the_quiz_page_reads_in_french_with_french_numbers(teacher):
    page = teacher.get(f"/stats/quiz/{QUIZ_SLUG}", headers=FRENCH).get_data(as_text=True)
    assert '<html lang="fr-CA">' in page
    assert "<dt>Tentatives terminées</dt><dd>40</dd>" in page
    assert "<dt>Réponses comptées</dt><dd>400</dd>" in page
    # 58.3% in English is 58,3 % in French.
    assert re.search(rf"<dt>Score moyen</dt><dd>\d{{1,3}},\d{NBSP}%</dd>", page)
    assert re.search(rf"<dt>Écart-type</dt><dd>\d{{1,3}},\d{NBSP}points</dd>", page)
    assert re.search(rf"<td>\d+,\d{NBSP}s</td>", page), "median times to answer, to a tenth of a second"
    assert "Questions à revoir" in page and "Répartition des scores" in page
    for english in ("Finished attempts", "Mean score", "Questions to review", "Score distribution"):
        assert english not in page


def test_charts_are_labelled_in_french(teacher):
    page = teacher.get(f"/stats/quiz/{QUIZ_SLUG}", headers=FRENCH).get_data(as_text=True)
    facility = chart(page, "chart-facility")
    assert facility.find("title").text == "Part de bonnes réponses par question"
    assert texts(facility, "tick") == [f"{percent}{NBSP}%" for percent in (0, 25, 50, 75, 100)]
    assert all(re.fullmatch(rf"\d{{1,3}}{NBSP}%( ⚑)?", value) for value in texts(facility, "value"))
    scores = chart(page, "chart-scores")
    assert scores.find("title").text == "Scores des tentatives terminées"
    description = scores.find("desc").text
    assert description.startswith(
        f"Nombre de tentatives terminées dans chaque tranche de pourcentage de bonnes réponses{NBSP}: "
        f"0–10{NBSP}%{NBSP}: "
    )
    assert texts(scores, "label")[-1] == f"90–100{NBSP}%"


def test_the_json_figures_stay_in_english(bundled):
    # Every answer right: every question with enough answers is too easy, and every score is the same.
    play_solo(bundled, 40, right=1.0)
    teacher = log_in(bundled, "teacher")
    page = teacher.get(f"/stats/quiz/{QUIZ_SLUG}", headers=FRENCH).get_data(as_text=True)
    assert f"Trop facile{NBSP}: 100{NBSP}% des réponses sont justes." in page
    assert "ont toutes le même score, la fidélité ne peut donc pas être calculée" in page

    french = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json", headers=FRENCH).get_json()
    assert french == teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json").get_json()
    assert french["summary"]["reliability_note"].startswith("All 40 finished attempts of ")
    assert "Too easy: 100% answered it right." in [reason for item in french["questions"] for reason in item["reasons"]]


def test_too_few_attempts_for_reliability_said_in_french(bundled):
    play_solo(bundled, 5, right=0.6)
    teacher = log_in(bundled, "teacher")
    length = teacher.get(f"/stats/quiz/{QUIZ_SLUG}.json").get_json()["summary"]["reliability_length"]
    page = teacher.get(f"/stats/quiz/{QUIZ_SLUG}", headers=FRENCH).get_data(as_text=True)
    assert (
        f'<dt>Fidélité (KR-20)</dt><dd><span class="note">5 tentatives terminées de {length} questions '
        f"jusqu’ici{NBSP}: la fidélité est affichée à partir de 30 tentatives de ce genre.</span></dd>"
    ) in page
