"""The whole pipeline on every measured article: the mechanical parts of the quality rubric.

Every article in bench/articles/ and the bundled one is drafted alone (as the quality report
does) and with the others as a bank, and every question must pass what a machine can judge.
"""

from __future__ import annotations

import csv
import random
import re
import sys
from collections.abc import Sequence

import pytest

from quiz import giveaways
from quiz.bank import parse_bank
from quiz.quotes import fold
from quiz.bank.yamlfile import dump_yaml
from quiz.generator import distractors, draft_bank, drafting, generate_questions, read_article, templates
from quiz.generator.entities import PERSON
from quiz.generator.drafting import repeated_parts
from quiz.generator.facts import analyse
from quiz.generator.markdown import plain_text
from quiz.generator.numbers import NumberForm
from quiz.kinds.number import NUMBER_WORDS
from quiz.generator.sentences import quotation_spans
from quiz.generator.validation import LENGTH_RATIO, LENGTH_SLACK
from tests.conftest import REPO
from tests.generator.conftest import ARTICLE_FILES

#: The drafts kept per 1,000 words over the benchmark's dev articles, at the least (6.9 when
#: this was written, names included; bench/generator_quality.md has the measured figures).
MIN_KEPT_PER_1000_WORDS = 6.8


def folded(text: str) -> str:
    return fold(text).casefold()


@pytest.fixture(scope="module", params=[(path, alone) for path in ARTICLE_FILES for alone in (True, False)],
                ids=lambda param: f"{param[0].stem}-{'alone' if param[1] else 'bank'}")
def drafted(request):
    path, alone = request.param
    _, text = read_article(path.read_bytes(), str(path))
    others = [] if alone else [read_article(other.read_bytes(), str(other))[1] for other in ARTICLE_FILES if other != path]
    return text, generate_questions(text, other_texts=others), others


def located(text, question):
    """The fact a question asks for: the answer's place inside the quote's place in the text.
    A number question's answer is the fact's value; a text question's, the name as the article
    writes it in the quote; a multiple-choice question's, its text."""
    quote = question["source"][0]
    quote_start = text.index(quote)

    def answers(fact) -> bool:
        if question["kind"] == "number":
            return fact.kind == question["tags"][1] and isinstance(fact.form, NumberForm) and float(fact.form.value) == question["answer"]
        if question["kind"] == "text":
            return fact.kind == question["tags"][1] and fact.shown == question["accept"][0]
        return fact.shown == question["correct"]

    return next(
        fact for fact in analyse(text).facts
        if answers(fact) and quote_start <= fact.start and fact.end <= quote_start + len(quote)
    )


def as_written(text, question) -> str:
    """What fills a question's blank: the right choice, the typed name, or the typed number as
    the article writes it."""
    if question["kind"] == "single":
        return question["correct"]
    if question["kind"] == "text":
        return question["accept"][0]
    fact = located(text, question)
    return fact.text.removesuffix(fact.form.unit)


def multiple_choice(questions):
    return [question for question in questions if question["kind"] == "single"]


def test_the_yield_over_the_dev_articles():
    # Over a set rather than article by article: one story has ten figures, another none.
    words = kept = 0
    for path in ARTICLE_FILES[1:]:
        _, text = read_article(path.read_bytes(), str(path))
        words += len(text.split())
        kept += len(draft_bank(text, title="A title", article_id="article", quiz_id="quiz")["questions"])
    assert kept * 1000 / words >= MIN_KEPT_PER_1000_WORDS


def test_every_question_is_sound(drafted):
    text, questions, _ = drafted
    for question in questions:
        if question["kind"] == "number":
            assert_a_sound_number_question(text, question)
            continue
        if question["kind"] == "text":
            assert_a_sound_name_question(text, question)
            continue
        answer, choices, quote = question["correct"], question["choices"], question["source"][0]
        assert folded(located(text, question).text) in folded(quote), question["id"]
        assert quote in text
        assert answer in choices and 3 <= len(choices) <= 4
        keys = [folded(choice) for choice in choices]
        assert len(set(keys)) == len(keys)
        for key in keys:
            assert not any(re.search(rf"(?<!\w){re.escape(key)}(?!\w)", other) for other in keys if other != key)
        assert not re.search(rf"(?<!\w){re.escape(folded(answer))}(?!\w)", folded(question["prompt"])), question["id"]
        others = [len(choice) for choice in choices if choice != answer]
        assert len(answer) <= max(max(others) * LENGTH_RATIO, max(others) + LENGTH_SLACK)
        assert len(answer) >= min(min(others) / LENGTH_RATIO, min(others) - LENGTH_SLACK)
        assert question["tags"][0] == "generated" and question["kind"] == "single"


def assert_a_sound_number_question(text, question):
    fact = located(text, question)
    assert fact.kind in ("quantity", "duration", "age") and question["tags"] == ["generated", fact.kind]
    assert "choices" not in question and "correct" not in question
    # Exact, as the article is, unless it gives the figure roughly: then within 10% (none of
    # a figure below 10, where a tenth is less than one).
    hedged = re.search(r"\b(?:about|around|roughly|approximately|estimated|close to)\s+____", question["prompt"], re.IGNORECASE)
    assert ("tolerance" in question) == bool(hedged and question["answer"] >= 10), question["id"]
    assert question.get("tolerance", 0) <= max(1, question["answer"] * 10 / 100)
    if "____" in question["prompt"]:
        number = as_written(text, question)
        assert question["prompt"].count("____") == 1
        assert not re.search(rf"(?<!\w){re.escape(folded(number))}(?!\w)", folded(question["prompt"])), question["id"]
        # The unit stays in the sentence, after the blank, and the label names it: "a ____-year
        # sentence" in years.
        assert fact.text in question["prompt"].replace("____", number), question["id"]
        joined = re.fullmatch(r"-([a-z]+)(?:-old)?", fact.form.unit)
        assert question.get("unit", "") == (f"{joined.group(1)}s" if joined else fact.form.unit.strip())


def assert_a_sound_name_question(text, question):
    fact = located(text, question)
    assert fact.kind in drafting.TYPED_NAME_KINDS and question["tags"] == ["generated", fact.kind]
    assert "choices" not in question and "correct" not in question and question["fuzzy"] is True
    # The name as the quote writes it first, then every other way the article writes it; none
    # of them in the prompt, which would give the name away.
    assert question["accept"][0] == fact.shown and len({folded(name) for name in question["accept"]}) == len(question["accept"])
    assert all(folded(name) in folded(text) for name in question["accept"])
    for name in question["accept"]:
        assert not re.search(rf"(?<!\w){re.escape(folded(name))}(?!\w)", folded(question["prompt"])), question["id"]
    assert question["prompt"].count("____") == (0 if question["prompt"].startswith("According to the article, who") else 1)


def test_no_value_is_asked_twice(drafted):
    text, questions, _ = drafted
    keys = [located(text, question).value_key for question in questions]
    assert len(set(keys)) == len(keys)


def test_no_wrong_choice_is_a_value_another_question_gives_to_something_else(drafted):
    # "on ____" with March 14 offered, beside "On March 14, NATO said ...": plainly not the answer.
    _, questions, _ = drafted
    for question in questions:
        for choice in set(question.get("choices", [])) - {question.get("correct")}:
            pattern = rf"(?<![\w-]){re.escape(folded(choice))}(?![\w-])"
            assert not any(re.search(pattern, folded(other["prompt"])) for other in questions if other is not question), choice


def test_no_dateline_and_no_quote_cut_inside_a_quotation(drafted):
    text, questions, _ = drafted
    article = analyse(text)
    spans = quotation_spans(text)
    for question in questions:
        fact = located(text, question)
        sentence = article.sentences[fact.sentence]
        assert fact.start >= sentence.start + sentence.body, question["id"]
        start = text.index(question["source"][0])
        end = start + len(question["source"][0])
        assert not any(opened < start < closed or opened < end < closed for opened, closed in spans), question["id"]


def test_quotations_in_a_prompt_are_left_as_written(drafted):
    """A pronoun is replaced only in the narration: every quotation of the prompt is the quote's,
    but for the blank."""
    text, questions, _ = drafted
    quoted = re.compile(r"[\"“][^\"“”]*[\"”]")
    for question in questions:
        if not question["prompt"].startswith("Complete the sentence"):
            continue
        filled = question["prompt"].replace("____", as_written(text, question), 1)
        assert quoted.findall(filled) == quoted.findall(question["source"][0]), question["id"]


def test_the_answer_is_not_always_in_one_place(drafted):
    _, questions, _ = drafted
    chosen = multiple_choice(questions)
    positions = {question["choices"].index(question["correct"]) for question in chosen}
    assert len(positions) >= min(3, len(chosen) - 2)


def test_drafts_are_deterministic_and_load_as_a_bank(drafted):
    text, questions, others = drafted
    assert generate_questions(text, other_texts=others) == questions
    document = draft_bank(text, title="A title", article_id="article", quiz_id="quiz", other_texts=others)
    # The draft keeps the questions, in their order, that give nothing away to one another.
    drafted = {entry["id"]: {"id": entry["id"], "quiz": "quiz", **entry} for entry in questions}
    assert document["questions"] == [drafted[entry["id"]] for entry in document["questions"]]
    assert [entry["id"] for entry in document["questions"]] == [id_ for id_ in drafted if id_ in {e["id"] for e in document["questions"]}]
    dumped = dump_yaml(document)
    assert dumped == dump_yaml(draft_bank(text, title="A title", article_id="article", quiz_id="quiz", other_texts=others))
    bank = parse_bank(dumped.encode(), "draft.yaml", base_dir=None)
    assert len(bank.questions) == len(document["questions"]) and not bank.unsourced
    assert all(quote.excerpt in text for question in bank.questions for quote in question.quotes)
    assert giveaways.lint(bank) == []


def test_max_questions_keeps_the_best_in_article_order():
    _, text = read_article(ARTICLE_FILES[0].read_bytes(), "article")
    every = generate_questions(text)
    some = generate_questions(text, max_questions=5)
    assert len(some) == 5
    assert [every.index(question) for question in some] == sorted(every.index(question) for question in some)


def test_any_text_drafts_without_error():
    """Odd input gives fewer questions, never an exception: the README, and fragments that once failed."""
    texts = [
        (REPO / "README.md").read_text(encoding="utf-8"),
        "within a hundred kilometers (62 miles) of it",
        "Jan. 15--\n\n(CBS Local) --\n\n6:53 p.m. Some 50. -- : ; “ ” \" ' 1 feet",
        "A.\n\nB\n\n\"\n\n2:05:06 2 hours, 23, minutes 15 seconds",
    ]
    for text in texts:
        generate_questions(text)


def work(text: str, other_texts: Sequence[str] = ()) -> int:
    """How much Python runs to draft ``text``: every call and line counted. Unlike a time, the
    count is the same on any machine, however busy."""
    # Both measures start from empty caches, whatever earlier tests in this process left there.
    for module in (distractors, drafting, templates):
        for function in vars(module).values():
            if hasattr(function, "cache_clear"):
                function.cache_clear()
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        count += 1
        return trace

    previous = sys.gettrace()
    sys.settrace(trace)
    try:
        generate_questions(text, other_texts=other_texts)
    finally:
        sys.settrace(previous)
    return count


def renamed(text: str) -> str:
    """The same sentences about other people, places and organisations."""
    return re.sub(r"\b([A-Z][a-z]{3,})\b", r"\1x", text)


@pytest.mark.parametrize("layout", ["paragraphs", "one line"])
def test_twice_the_article_is_twice_the_work(layout):
    """No stage may read the whole article for each sentence, name, fact or question: drafting
    1 MB once took minutes, where it takes seconds. The work of two copies of an article (the
    second about other people) is measured against one's: work that grows as the square of the
    article would give about three times as much, not two."""
    joined = "\n\n".join(read_article(path.read_bytes(), str(path))[1] for path in ARTICLE_FILES[1:])
    text = joined[: joined.rfind("\n\n", 0, 16 * 1024)]
    if layout == "one line":
        text = text.replace("\n", " ")
    doubled = text + "\n\n" + renamed(text)
    # Patterns compiled once, as for any later article, those made for an article's own names
    # too ("Carmel|Kidapawan"): otherwise the doubled text alone adds patterns to Python's cache,
    # which drops its oldest when full, and pays to compile again those it dropped.
    generate_questions(text)
    generate_questions(doubled)
    assert work(doubled) < 2.3 * work(text)


def test_each_article_is_analysed_once(monkeypatch):
    analysed: list[str] = []
    analyse_once = drafting.analyse
    monkeypatch.setattr(drafting, "analyse", lambda text, *rest: analysed.append(text) or analyse_once(text, *rest))
    texts = [path.read_text(encoding="utf-8") for path in ARTICLE_FILES[:4]]
    assert generate_questions(texts[0], other_texts=texts[1:])
    assert sorted(analysed) == sorted(plain_text(text) for text in texts)


def test_the_article_is_searched_once_for_the_answers_it_repeats(monkeypatch):
    """Whether an answer is repeated (an easy question) is looked up for all answers at once."""
    searches: list[int] = []
    search = drafting.repeated_parts
    monkeypatch.setattr(drafting, "repeated_parts", lambda text, parts: searches.append(1) or search(text, parts))
    _, text = read_article(ARTICLE_FILES[0].read_bytes(), "article")
    assert {question["difficulty"] for question in generate_questions(text)} >= {"easy", "medium"}
    assert searches == [1]


def test_repeated_parts_are_those_the_text_counts_twice():
    rng = random.Random(2)
    for _ in range(5000):
        text = "".join(rng.choice("ab c") for _ in range(rng.randrange(30)))
        parts = {"".join(rng.choice("ab c") for _ in range(rng.randrange(8))) for _ in range(5)}
        assert repeated_parts(text, parts) == {part for part in parts if text.count(part) > 1}


def test_the_draft_keeps_the_article_text_as_read():
    title, text = read_article(b"# The Star\n\nThe \\*Star\\* Theatre in Leeds opened in 1921 with 800 seats.\n", "star.md")
    assert (title, text) == ("The Star", "The *Star* Theatre in Leeds opened in 1921 with 800 seats.")
    document = draft_bank(text, title=title, article_id="star", quiz_id="star")
    assert document["articles"][0]["text"] == text


RINK = """The city of Halden opened the Halden Ice Centre on Saturday after a long wait.
Builders worked on the Halden Ice Centre for 14 months before Mayor Anne Berg cut the ribbon in front of a crowd.
On Saturday evening, 2,430 fans watched Halden IK beat Fredrikstad in the first match at the Halden Ice Centre.
Local skating clubs will train in Halden every weekday morning during the winter season.
"""


def test_a_figure_with_no_other_of_its_kind_in_the_article_is_typed():
    """Made-up wrong choices are what readers judge implausible: with none of the article's own
    figures to offer, the player types the number, its unit named after the blank."""
    months, fans = generate_questions(RINK, names=False)
    assert months["kind"] == "number" and "choices" not in months and "correct" not in months
    assert months["prompt"].endswith("Centre for ____ months before Mayor Anne Berg cut the ribbon in front of a crowd.")
    assert (months["answer"], months["unit"], months.get("tolerance")) == (14, "months", None)
    assert months["explanation"].endswith("for 14 months before Mayor Anne Berg cut the ribbon in front of a crowd.")
    assert (fans["kind"], fans["answer"], fans.get("tolerance"), fans.get("unit")) == ("number", 2430, None, None)
    assert "____ fans watched" in fans["prompt"]


def test_a_figure_the_article_gives_roughly_is_right_within_a_tenth():
    _, fans = generate_questions(RINK.replace("2,430 fans", "about 2,430 fans"), names=False)
    # 10% of 2,430, rounded down to one figure.
    assert (fans["answer"], fans["tolerance"]) == (2430, 200)
    # "On Saturday evening," said when the story was filed; the player is not told when that was.
    assert fans["prompt"].endswith("article: About ____ fans watched Halden IK beat Fredrikstad in the first match at the Halden Ice Centre.")
    # Below 10, a tenth is less than one: the figure is asked exactly.
    months, _ = generate_questions(RINK.replace("for 14 months", "for about 8 months"), names=False)
    assert months["answer"] == 8 and "tolerance" not in months


def test_a_count_is_typed_even_where_the_article_holds_others_of_its_kind():
    # Graded blind, the article's other figures made wrong choices that readers ruled out by the
    # sentence ("more than 20 dead": not 4) or told apart by their form; typed, there are none.
    text = RINK + "The old rink in Halden held 1,900 fans and closed after a fire.\nIt had room for 2,100 fans before a stand was shut.\n"
    by_answer = {question.get("correct", question.get("answer")): question for question in generate_questions(text)}
    assert {by_answer[answer]["kind"] for answer in (14, 2430, 1900)} == {"number"}
    # Money stays multiple choice: its wrong choices are written as the article writes amounts.
    money = generate_questions("NASA pays the US government roughly US$80 million per astronaut in 2019, officials said.")
    assert next(question for question in money if question["tags"][-1] == "quantity")["kind"] == "single"


def test_a_figure_the_headline_states_is_asked_and_left_out_of_the_quiz_title():
    text = RINK.replace("14 months", "fourteen months")

    def drafted(title: str) -> tuple[str, list[object]]:
        document = draft_bank(text, title=title, article_id="halden", quiz_id="halden")
        assert document["articles"][0]["title"] == title
        return document["quizzes"][0]["title"], [question.get("answer", question.get("correct")) for question in document["questions"]]

    assert drafted("The Halden Ice Centre opens") == ("The Halden Ice Centre opens", drafted("The Halden Ice Centre opens")[1])
    title, answers = drafted("The Halden Ice Centre opens after fourteen months")
    assert 14 in answers and title == "The Halden Ice Centre opens"
    title, answers = drafted("Fourteen months")  # too little would be left: the question goes instead
    assert 14 not in answers and title == "Fourteen months"


def test_of_a_year_and_a_figure_that_give_each_other_away_the_year_goes():
    text = RINK.replace("Builders worked", "In 2021, builders worked")
    document = draft_bank(text, title="The Halden Ice Centre", article_id="halden", quiz_id="halden")
    answers = [question.get("answer", question.get("correct")) for question in document["questions"]]
    assert 14 in answers and "2021" not in answers  # one sentence: one of them stays, the figure


def test_a_name_takes_a_sentences_place_only_where_no_figure_wants_it():
    opening = "The Halden Ice Centre opened in 2021. At the opening, Mayor Anne Berg watched "
    named = [question["id"] for question in generate_questions(opening + "the fans cheer after months of work.")]
    assert "person-anne-berg" in named
    counted = [question["id"] for question in generate_questions(opening + "2,430 fans cheer after 14 months of work.")]
    assert counted == ["year-2021", "quantity-2-430", "duration-14-months"]  # two a sentence, both figures


def test_of_a_name_and_a_figure_that_give_each_other_away_the_name_goes():
    text = RINK.replace(
        "Builders worked on the Halden Ice Centre for 14 months before Mayor Anne Berg cut the ribbon in front of a crowd.",
        "In front of a crowd, Mayor Anne Berg cut the ribbon after builders worked on the Halden Ice Centre for 14 months.",
    )
    assert [question["id"] for question in generate_questions(text)][:2] == ["person-anne-berg", "duration-14-months"]
    document = draft_bank(text, title="Ice centre opens", article_id="halden", quiz_id="halden")
    kept = [question["id"] for question in document["questions"]]
    assert "duration-14-months" in kept and "person-anne-berg" not in kept  # one sentence: the figure stays
    assert all(question["kind"] != "text" or question["fuzzy"] for question in document["questions"])


def test_names_give_way_before_a_figure_that_more_drafts_repeat():
    text = (
        "A deadly boat fire near Santa Cruz Island resulted in the death of all 33 passengers. "
        "The boat, Conception, carried 33 passengers and six crew members."
    )
    assert [question["id"] for question in generate_questions(text)] == ["place-santa-cruz-island", "quantity-33", "quantity-six"]
    document = draft_bank(text, title="Boat fire", article_id="boat", quiz_id="boat")
    assert [question["id"] for question in document["questions"]] == ["quantity-33"]


def test_no_wrong_choice_is_the_word_of_another_questions_typed_figure():
    text = (
        "The Vatican is to decide within a month if an investigation is required, and the investigation "
        "ordinarily has to be completed in three months. Per the doctrines, testimony of two witnesses is "
        "required to convict a person for the alleged crime."
    )
    months, witnesses = generate_questions(text)
    assert (months["kind"], months["answer"]) == ("number", 3)
    assert "three" not in witnesses.get("choices", [])


def test_typed_figures_load_as_number_questions():
    document = draft_bank(RINK, title="The Halden Ice Centre", article_id="halden", quiz_id="halden")
    bank = parse_bank(dump_yaml(document).encode(), "draft.yaml", base_dir=None)
    months = next(question for question in bank.questions if question.slug.startswith("duration-14"))
    assert months.kind == "number" and months.answer_key == {"answer": 14, "tolerance": 0, "unit": "months"}
    assert giveaways.lint(bank) == []


#: Of the facts a teacher would ask of the dev articles (bench/labels/central-facts-dev.tsv),
#: how many the drafts ask, at the least (40 of 210 when this was written; 31 before rounds 32
#: to 38, by this test's reading).
MIN_CENTRAL_FACTS_ASKED = 38


def test_the_drafts_ask_facts_a_teacher_would():
    with (REPO / "bench" / "labels" / "central-facts-dev.tsv").open(encoding="utf-8", newline="") as listed:
        wanted = list(csv.DictReader(listed, delimiter="\t"))
    asked = 0
    for article in sorted({row["article"] for row in wanted}):
        path = REPO / "bench" / "articles" / "dev" / f"{article}.txt"
        title, text = read_article(path.read_bytes(), str(path))
        questions = draft_bank(text, title=title or article, article_id="article", quiz_id="quiz")["questions"]
        answers = [
            folded(str(answer)) for question in questions
            for answer in question.get("accept", [question.get("correct", question.get("answer")), NUMBER_WORDS.get(question.get("answer"))])
            if answer is not None
        ]
        for row in (row for row in wanted if row["article"] == article):
            fact = folded(row["answer"])
            # "Carmel Valley" asks "Carmel Valley, California"; "five" asks "five children".
            asked += any(re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", fact) for answer in answers if answer)
    assert asked >= MIN_CENTRAL_FACTS_ASKED
