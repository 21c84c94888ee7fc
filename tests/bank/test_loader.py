"""Checking a bank file: every rule's error names its exact place; and the bundled bank is sound."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest

from quiz.bank import BankInvalid, load_bank
from quiz.quotes import fold
from quiz.paths import bundled_bank

ARTICLE = "It’s a “nice” day — really. The sky is blue and the grass is green."

#: Ten lines: the first question written after it starts on line 11.
HEADER = f"""\
version: 1
articles:
  - id: a
    title: A
    text: "{ARTICLE}"
quizzes:
  - id: q
    title: Q
    article: a
questions:
"""

#: Six lines: id, prompt, choices, correct, explanation, source.
QUESTION = """\
  - id: one
    prompt: What colour is the sky?
    choices: [Blue, Green, Red]
    correct: Blue
    explanation: The article describes a clear sky.
    source: The sky is blue
"""


def question(**replacements: str) -> str:
    """QUESTION with a field's line replaced (keeping its indent), or removed when given ""."""
    text = QUESTION
    for field, line in replacements.items():
        pattern = re.compile(rf"^(  - |    ){field}: .*\n", flags=re.M)
        assert pattern.search(text), field
        text = pattern.sub(lambda match: f"{match[1]}{line}\n" if line else "", text)
    return text


def errors_of(path) -> list[str]:
    with pytest.raises(BankInvalid) as caught:
        load_bank(path)
    return [str(error) for error in caught.value.errors]


def test_header_and_question_templates_load(write_bank):
    bank = load_bank(write_bank(HEADER + QUESTION))
    (loaded,) = bank.questions
    assert (loaded.slug, loaded.quiz_slug, loaded.kind, loaded.difficulty) == ("one", "q", "single", "medium")
    assert [(choice.text, choice.is_correct) for choice in loaded.choices] == [
        ("Blue", True), ("Green", False), ("Red", False),
    ]
    assert [quote.excerpt for quote in loaded.quotes] == ["The sky is blue"]


# Schema ---------------------------------------------------------------------------------------


def test_unknown_field_suggests_the_close_known_one(write_bank):
    path = write_bank(HEADER + question(explanation="explaination: The article describes a clear sky."))
    assert errors_of(path) == [
        f"{path}:11:5: questions[0].explanation: required field is missing",
        f"{path}:15:5: questions[0].explaination: unknown field 'explaination' (did you mean 'explanation'?)",
    ]


def test_unknown_field_without_a_close_match_has_no_hint(write_bank):
    path = write_bank(HEADER + QUESTION + "    colour: blue\n")
    assert errors_of(path) == [f"{path}:17:5: questions[0].colour: unknown field 'colour'"]


def test_unknown_top_level_field_is_refused(write_bank):
    path = write_bank(HEADER.replace("version: 1\n", "version: 1\nquestion: []\n") + QUESTION)
    assert errors_of(path) == [f"{path}:2:1: question: unknown field 'question' (did you mean 'questions'?)"]


def test_missing_required_field_is_reported_at_its_entry(write_bank):
    path = write_bank(HEADER + question(prompt=""))
    assert errors_of(path) == [f"{path}:11:5: questions[0].prompt: required field is missing"]


def test_missing_version_is_refused(write_bank):
    path = write_bank(HEADER.replace("version: 1\n", "") + QUESTION)
    assert errors_of(path) == [f"{path}:1:1: version: required field is missing"]


def test_version_other_than_1_is_refused(write_bank):
    path = write_bank(HEADER.replace("version: 1\n", "version: 2\n") + QUESTION)
    assert errors_of(path) == [f"{path}:1:1: version: must be 1, the only version of the format"]


def test_version_true_is_not_version_1(write_bank):
    """YAML's true is a boolean, not the number 1."""
    path = write_bank(HEADER.replace("version: 1\n", "version: true\n") + QUESTION)
    assert errors_of(path) == [f"{path}:1:1: version: must be 1, the only version of the format"]


def test_version_given_as_text_is_refused(write_bank):
    path = write_bank(HEADER.replace("version: 1\n", "version: '1'\n") + QUESTION)
    assert errors_of(path) == [f"{path}:1:1: version: must be 1, the only version of the format"]


def test_unknown_quiz_setting_suggests_the_close_known_one(write_bank):
    path = write_bank(HEADER.replace("    article: a\n", "    article: a\n    settings:\n      time_limt: 20\n") + QUESTION)
    assert errors_of(path) == [
        f"{path}:11:7: quizzes[0].settings.time_limt: unknown field 'time_limt' (did you mean 'time_limit'?)"
    ]


@pytest.mark.parametrize("value", ["[q]", "{name: q}"])
def test_id_that_is_not_text_is_reported_not_crashed_on(write_bank, value):
    path = write_bank(HEADER.replace("  - id: q\n", f"  - id: {value}\n") + QUESTION)
    errors = errors_of(path)
    assert errors[0] == f"{path}:7:5: quizzes[0].id: input should be a valid string"


def test_bad_identifier_is_explained(write_bank):
    path = write_bank(HEADER + question(id="id: Bad Id"))
    assert errors_of(path) == [
        f"{path}:11:5: questions[0].id: must be lowercase letters, digits, '-', '_' or '.',"
        " starting and ending with a letter or digit"
    ]


# Uniqueness and choices -----------------------------------------------------------------------


def test_duplicate_question_id_names_the_line_of_the_first(write_bank):
    path = write_bank(HEADER + QUESTION + QUESTION)
    assert errors_of(path) == [f"{path}:17:5: questions[1].id: duplicate id 'one' (first used on line 11)"]


def test_duplicate_article_id_is_refused(write_bank):
    second_article = "  - id: a\n    title: Again\n    text: Other words.\n"
    path = write_bank(HEADER.replace("quizzes:\n", second_article + "quizzes:\n") + QUESTION)
    assert errors_of(path) == [f"{path}:6:5: articles[1].id: duplicate id 'a' (first used on line 3)"]


def test_duplicate_choice_is_refused(write_bank):
    path = write_bank(HEADER + question(choices="choices: [Blue, Green, Blue]"))
    assert errors_of(path) == [f"{path}:13:28: questions[0].choices[2]: duplicate of choice 1 ('Blue')"]


def test_choices_differing_only_in_case_or_typography_are_duplicates(write_bank):
    path = write_bank(HEADER + question(choices="choices: [Blue, BLUE, \"It’s — fine\", \"it's - fine\"]"))
    assert errors_of(path) == [
        f"{path}:13:21: questions[0].choices[1]: duplicate of choice 1 ('BLUE')",
        f"{path}:13:42: questions[0].choices[3]: duplicate of choice 3 ('it's - fine')",
    ]


def test_single_question_whose_correct_text_is_not_a_choice_is_refused(write_bank):
    path = write_bank(HEADER + question(correct="correct: Yellow"))
    assert errors_of(path) == [f"{path}:14:5: questions[0].correct: 'Yellow' is not one of the choices"]


def test_misspelt_correct_text_suggests_the_choice(write_bank):
    path = write_bank(HEADER + question(correct="correct: Bleu"))
    assert errors_of(path) == [
        f"{path}:14:5: questions[0].correct: 'Bleu' is not one of the choices (did you mean 'Blue'?)"
    ]


def test_single_question_with_several_correct_is_refused(write_bank):
    path = write_bank(HEADER + question(correct="correct: [Blue, Green]"))
    assert errors_of(path) == [
        f"{path}:14:5: questions[0].correct: a single question needs exactly one correct choice, not 2"
    ]


def test_correct_choice_listed_twice_is_refused(write_bank):
    path = write_bank(HEADER + question(prompt="kind: multi\n    prompt: Which?", correct="correct: [Blue, Blue]"))
    assert errors_of(path) == [f"{path}:15:5: questions[0].correct: a correct choice is listed twice"]


def test_multi_question_with_some_correct_loads(write_bank):
    text = HEADER + question(prompt="kind: multi\n    prompt: Which colours?", correct="correct: [Blue, Green]")
    (loaded,) = load_bank(write_bank(text)).questions
    assert loaded.kind == "multi"
    assert [choice.is_correct for choice in loaded.choices] == [True, True, False]


def test_multi_question_with_every_choice_correct_is_refused(write_bank):
    text = HEADER + question(prompt="kind: multi\n    prompt: Which colours?", correct="correct: [Blue, Green, Red]")
    path = write_bank(text)
    assert errors_of(path) == [f"{path}:15:5: questions[0].correct: a multi question needs at least one wrong choice"]


def test_boolean_correct_on_a_single_question_is_refused(write_bank):
    path = write_bank(HEADER + question(correct="correct: true"))
    assert errors_of(path) == [
        f"{path}:14:5: questions[0].correct: name the correct choice by its text"
        " (true/false is for true_false questions)"
    ]


def test_true_false_question_with_correct_true_loads(write_bank):
    text = HEADER + question(prompt="kind: true_false\n    prompt: The sky is blue.", choices="", correct="correct: true")
    (loaded,) = load_bank(write_bank(text)).questions
    assert [(choice.text, choice.is_correct) for choice in loaded.choices] == [("True", True), ("False", False)]


def test_true_false_question_accepts_false_written_as_text(write_bank):
    text = HEADER + question(prompt="kind: true_false\n    prompt: The sky is red.", choices="", correct="correct: 'false'")
    (loaded,) = load_bank(write_bank(text)).questions
    assert [(choice.text, choice.is_correct) for choice in loaded.choices] == [("True", False), ("False", True)]


def test_true_false_question_with_custom_choices_is_refused(write_bank):
    text = HEADER + question(prompt="kind: true_false\n    prompt: The sky is blue.",
                             choices="choices: [Yes, No]", correct="correct: true")
    path = write_bank(text)
    assert errors_of(path) == [
        f"{path}:14:5: questions[0].choices: true_false questions always have the choices True and False;"
        " leave choices out"
    ]


def test_true_false_question_with_a_text_answer_is_refused(write_bank):
    text = HEADER + question(prompt="kind: true_false\n    prompt: The sky is blue.", choices="", correct="correct: Blue")
    path = write_bank(text)
    assert errors_of(path) == [f"{path}:14:5: questions[0].correct: a true_false question's answer is true or false"]


def test_single_question_without_choices_is_refused(write_bank):
    path = write_bank(HEADER + question(choices=""))
    assert errors_of(path) == [f"{path}:11:5: questions[0].choices: a single question needs 2 to 6 choices"]


# Quotes and references ------------------------------------------------------------------------


def test_quote_not_in_article_is_refused_with_where_it_stops_matching(write_bank):
    path = write_bank(HEADER + question(source="source: The sky is blue and the grass is red."))
    assert errors_of(path) == [
        f"{path}:16:5: questions[0].source[0]: quote not found in article 'a';"
        ' it matches up to "The sky is blue and the grass is "'
    ]


def test_quote_matching_almost_nothing_gets_no_hint(write_bank):
    path = write_bank(HEADER + question(source="source: Clouds everywhere"))
    assert errors_of(path) == [f"{path}:16:5: questions[0].source[0]: quote not found in article 'a'"]


def test_each_bad_quote_of_a_question_is_reported_at_its_own_line(write_bank):
    path = write_bank(HEADER + question(source="source:\n      - The sky is blue\n      - The sky is bluish"))
    assert errors_of(path) == [
        f"{path}:18:9: questions[0].source[1]: quote not found in article 'a';"
        ' it matches up to "The sky is blu"'
    ]


def test_reference_to_unknown_quiz_is_refused(write_bank):
    path = write_bank(HEADER + question(prompt="quiz: nope\n    prompt: What colour is the sky?"))
    assert errors_of(path) == [f"{path}:12:5: questions[0].quiz: no quiz with id 'nope' in this file"]


def test_reference_to_unknown_article_is_refused(write_bank):
    path = write_bank(HEADER.replace("article: a", "article: b") + QUESTION)
    assert errors_of(path) == [f"{path}:9:5: quizzes[0].article: no article with id 'b' in this file"]


def test_question_must_name_its_quiz_when_there_are_several(write_bank):
    second_quiz = "  - id: q2\n    title: Q2\n    article: a\n"
    path = write_bank(HEADER.replace("questions:\n", second_quiz + "questions:\n") + QUESTION)
    assert errors_of(path) == [f"{path}:14:5: questions[0].id: say which quiz this question belongs to (quiz: ...)"]


def test_article_with_both_text_and_file_is_refused(write_bank):
    path = write_bank(HEADER.replace("    title: A\n", "    title: A\n    file: a.txt\n") + QUESTION)
    assert errors_of(path) == [
        f"{path}:3:5: articles[0]: give the article's text or its file, not both or neither"
    ]


def test_article_with_neither_text_nor_file_is_refused(write_bank):
    path = write_bank(re.sub(r"    text: .*\n", "", HEADER) + QUESTION)
    assert errors_of(path) == [
        f"{path}:3:5: articles[0]: give the article's text or its file, not both or neither"
    ]


def test_article_file_beside_the_bank_is_read(write_bank, tmp_path):
    (tmp_path / "texts").mkdir()
    (tmp_path / "texts" / "a.txt").write_text(ARTICLE, encoding="utf-8")
    path = write_bank(re.sub(r"    text: .*\n", "    file: texts/a.txt\n", HEADER) + QUESTION)
    bank = load_bank(path)
    assert bank.articles[0].text == ARTICLE
    assert bank.questions[0].quotes[0].excerpt == "The sky is blue"


def test_article_file_outside_the_bank_folder_is_refused(write_bank, tmp_path):
    (tmp_path / "x.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "bank").mkdir()
    path = write_bank(re.sub(r"    text: .*\n", "    file: ../x.txt\n", HEADER) + QUESTION, name="bank/bank.yaml")
    assert errors_of(path) == [f"{path}:5:5: articles[0].file: the article file must be inside the bank file's folder"]


def test_article_file_given_as_absolute_path_outside_the_folder_is_refused(write_bank, tmp_path):
    (tmp_path / "x.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "bank").mkdir()
    text = re.sub(r"    text: .*\n", f"    file: {tmp_path / 'x.txt'}\n", HEADER) + QUESTION
    path = write_bank(text, name="bank/bank.yaml")
    assert errors_of(path) == [f"{path}:5:5: articles[0].file: the article file must be inside the bank file's folder"]


def test_article_file_symlinked_from_outside_the_folder_is_refused(write_bank, tmp_path):
    (tmp_path / "secret.txt").write_text(ARTICLE, encoding="utf-8")
    (tmp_path / "bank").mkdir()
    (tmp_path / "bank" / "a.txt").symlink_to(tmp_path / "secret.txt")
    path = write_bank(re.sub(r"    text: .*\n", "    file: a.txt\n", HEADER) + QUESTION, name="bank/bank.yaml")
    assert errors_of(path) == [f"{path}:5:5: articles[0].file: the article file must be inside the bank file's folder"]


def test_missing_article_file_is_refused(write_bank):
    path = write_bank(re.sub(r"    text: .*\n", "    file: gone.txt\n", HEADER) + QUESTION)
    assert errors_of(path) == [
        f"{path}:5:5: articles[0].file: cannot read article file 'gone.txt': No such file or directory"
    ]


def test_article_file_that_is_not_utf8_is_refused(write_bank, tmp_path):
    (tmp_path / "a.txt").write_bytes(b"The sky is blue\xff")
    path = write_bank(re.sub(r"    text: .*\n", "    file: a.txt\n", HEADER) + QUESTION)
    assert errors_of(path) == [f"{path}:5:5: articles[0].file: article file 'a.txt' is not valid UTF-8 (at byte 15)"]


@pytest.mark.parametrize("escape, code", [("\\0", "0000"), ("\\u202e", "202E"), ("\\x1b", "001B")])
def test_control_characters_in_a_text_are_refused_at_their_field(write_bank, escape, code):
    path = write_bank(HEADER + question(prompt=f'prompt: "What colour{escape} is the sky?"'))
    assert errors_of(path) == [
        f"{path}:12:5: questions[0].prompt: holds the control character U+{code} at character 12; remove it"
    ]


def test_tabs_and_line_breaks_are_text(write_bank):
    path = write_bank(HEADER + question(explanation='explanation: "A clear sky.\\n\\tBlue."'))
    assert load_bank(path).questions[0].explanation == "A clear sky.\n\tBlue."


def test_an_article_file_with_a_control_character_is_refused(write_bank, tmp_path):
    (tmp_path / "a.txt").write_text("The sky is blue\u202e and the grass is green.")
    path = write_bank(re.sub(r"    text: .*\n", "    file: a.txt\n", HEADER) + QUESTION)
    assert errors_of(path) == [
        f"{path}:5:5: articles[0].file: article file 'a.txt' holds the control character U+202E at character 16; remove it"
    ]


def test_every_error_is_reported_at_once_in_file_order(write_bank):
    text = (
        HEADER.replace("article: a", "article: b")                             # line 9
        + question(correct="correct: Yellow")                                  # line 14
        + question(id="id: two", prompt="promt: Typo?")                      # lines 17, 18
        + question(id="id: one", source="source: Not in the article at all")  # lines 23, 28
    )
    path = write_bank(text)
    assert errors_of(path) == [
        f"{path}:9:5: quizzes[0].article: no article with id 'b' in this file",
        f"{path}:14:5: questions[0].correct: 'Yellow' is not one of the choices",
        f"{path}:17:5: questions[1].prompt: required field is missing",
        f"{path}:18:5: questions[1].promt: unknown field 'promt' (did you mean 'prompt'?)",
        f"{path}:23:5: questions[2].id: duplicate id 'one' (first used on line 11)",
    ]


def test_every_error_is_reported_when_the_article_is_sound(write_bank):
    text = (
        HEADER
        + question(correct="correct: Yellow")                                  # line 14
        + question(id="id: two", choices="choices: [Blue, blue]")            # line 19
        + question(id="id: three", source="source: Not in the article at all")  # line 28
    )
    path = write_bank(text)
    assert errors_of(path) == [
        f"{path}:14:5: questions[0].correct: 'Yellow' is not one of the choices",
        f"{path}:19:21: questions[1].choices[1]: duplicate of choice 1 ('blue')",
        f"{path}:28:5: questions[2].source[0]: quote not found in article 'a'",
    ]


# The bundled bank -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def bank():
    return load_bank(bundled_bank())


def test_bundled_bank_has_at_least_30_questions(bank):
    assert len(bank.questions) >= 30


def test_bundled_bank_has_at_least_8_questions_of_each_difficulty(bank):
    counts = Counter(question.difficulty for question in bank.questions)
    assert {level: counts[level] >= 8 for level in ("easy", "medium", "hard")} == {
        "easy": True, "medium": True, "hard": True,
    }, counts


def test_every_bundled_question_has_a_quote(bank):
    assert [question.slug for question in bank.questions if not question.quotes] == []


def test_bundled_correct_answers_are_not_given_away_by_length(bank):
    """The correct choice is the strictly longest one in at most half of the single questions."""
    singles = [question for question in bank.questions if question.kind == "single"]
    longest = [
        question.slug
        for question in singles
        if all(
            len(correct.text) > len(other.text)
            for correct in question.choices if correct.is_correct
            for other in question.choices if not other.is_correct
        )
    ]
    assert singles
    assert len(longest) <= len(singles) / 2, longest


def _words(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", fold(text).casefold()).split())


def test_bundled_explanations_do_not_repeat_their_quotes(bank):
    """Explanations are in the author's words: no quote of six words or more appears in one."""
    repeated = [
        (question.slug, quote.excerpt)
        for question in bank.questions
        for quote in question.quotes
        if len(_words(quote.excerpt).split()) >= 6 and _words(quote.excerpt) in _words(question.explanation)
    ]
    assert repeated == []


def test_quote_repetition_guard_catches_a_repeated_quote():
    """The folding used above sees through case, typography and punctuation."""
    quote = "The hour-and-a-half-long drama is, in fact, a biopic."
    explanation = "As the article says, the hour‑and‑a‑half‑long drama is in fact a BIOPIC!"
    assert _words(quote) in _words(explanation)


# Errors found on the fast reader's document --------------------------------------------------

#: One way to break a question each: (field line to replace, replacement), "" removes the line.
BREAKAGES = [
    ("prompt", ""),  # required field missing
    ("prompt", "promt: What colour is the sky?"),  # unknown field, with a hint
    ("choices", "choices: 5"),  # wrong type
    ("choices", "choices: [Blue, blue, Red]"),  # duplicate choice
    ("choices", "choices: [Blue]"),  # too few
    ("correct", "correct: Purple"),  # not a choice
    ("correct", "correct: [Blue, Blue]"),  # listed twice
    ("correct", "correct: true"),  # true/false on a single question
    ("id", "id: Not An Id"),  # bad identifier
    ("id", "id: one"),  # duplicate id (first used on the first question's line)
    ("source", "source: The sky is purple"),  # quote not found
    ("source", "source: [The sky is blue, 'and the grass, quite green']"),  # second quote not found
    ("explanation", "explanation: ''"),  # empty text
    ("explanation", "explanation: [a, list]"),  # wrong type
    ("correct", "correct: Blue\n    quiz: nowhere"),  # unknown quiz
    ("correct", "correct: Blue\n    time_limit: 3"),  # out of range
    ("correct", "correct: Blue\n    tags: [Bad Tag]"),  # bad tag
    ("correct", "correct: Blue\n    kind: essay"),  # unknown kind
    ("correct", "correct: Blue\n    difficulty: 2"),  # not a difficulty
]


def test_errors_are_the_same_whichever_reader_read_the_file(write_bank, monkeypatch):
    """Over banks broken in several places at once, every error (place and message) is the one
    the reference reader's document gives."""
    from quiz.bank import yamlfile

    rng = random.Random(11)
    fast_taken = 0
    for trial in range(150):
        questions = [question(id=f"id: q{n}") for n in range(4)]
        for _ in range(rng.randrange(1, 4)):
            index = rng.randrange(len(questions))
            field, line = rng.choice(BREAKAGES)
            questions[index] = question_with(questions[index], field, line)
        text = HEADER + QUESTION + "".join(questions)
        if rng.random() < 0.2:
            text = text.replace("version: 1\n", "version: 1\nextra: field\n")
        path = write_bank(text, f"bank-{trial}.yaml")
        # A field added twice is a duplicate key, which only the reference reader reports.
        fast_taken += yamlfile._fast_document(text, str(path)) is not None
        fast = errors_of(path)
        with monkeypatch.context() as patched:
            patched.setattr(yamlfile, "_fast_document", lambda text, file: None)
            reference = errors_of(path)
        assert fast == reference, text
    assert fast_taken > 100


def question_with(text: str, field: str, line: str) -> str:
    """``text`` (a question entry) with its ``field`` line replaced, keeping its indent."""
    pattern = re.compile(rf"^(  - |    ){field}: .*\n", flags=re.M)
    if not pattern.search(text):
        return text  # already removed by an earlier breakage
    return pattern.sub(lambda match: f"{match[1]}{line}\n" if line else ("  - " if match[1] == "  - " else ""), text, count=1)


def test_a_quiz_names_the_language_of_its_texts(write_bank):
    bank = load_bank(write_bank(HEADER.replace("    article: a\n", "    article: a\n    language: fr-CA\n") + QUESTION))
    assert [quiz.language for quiz in bank.quizzes] == ["fr-CA"]
    assert [quiz.language for quiz in load_bank(write_bank(HEADER + QUESTION)).quizzes] == ["en"]


def test_a_language_that_is_no_language_tag_is_refused(write_bank):
    path = write_bank(HEADER.replace("    article: a\n", "    article: a\n    language: French\n") + QUESTION)
    assert errors_of(path) == [f"{path}:10:5: quizzes[0].language: must be a language tag such as 'en', 'fr' or 'fr-CA'"]
