"""GIFT: the writer's structure and escaping, reading Moodle's examples, leaving out what cannot be kept."""

from __future__ import annotations

import pytest

from quiz.bank import BankInvalid
from quiz.formats import gift
from quiz.formats.incoming import MAX_UPLOAD_BYTES
from tests.formats.conftest import questions_by_id


def errors_of(text: str, file: str = "q.gift", *, strict: bool = False) -> list[str]:
    """What refuses ``text``; with ``strict``, a question left out refuses it too."""
    with pytest.raises(BankInvalid) as refused:
        read = gift.read(text.encode(), file)
        if strict:
            read.strict()
    return [str(error) for error in refused.value.errors]


# Writing --------------------------------------------------------------------------------------


def test_each_quiz_is_a_category_with_a_comment(document):
    lines = gift.write(document).decode().splitlines()
    assert lines[0].startswith("// ")
    # A "/" in a category name is doubled, or Moodle would make a subcategory.
    at = lines.index("$CATEGORY: $course$/top/Colours // weather")
    assert lines[at - 1] == "// Quiz: Colours / weather (colours)"


def test_a_single_answer_question_escapes_every_special_character(document):
    lines = gift.write(document).decode().splitlines()
    start = lines.index(r"::sky::[plain]What colour is the sky? \{a\: b\} \~ \= \# \\ <b>bold</b> {")
    # Moodle reads the id and tags from the comment; the difficulty and time limit are ours.
    assert lines[start - 2 : start] == ["// [id:sky] [tag:sky] [tag:easy-ones]", "// difficulty: easy; time limit: 20 s"]
    assert lines[start + 1 : start + 6] == [
        "\t=Blue",
        "\t~\\=Green",
        "\t~Red \\#1",
        "\t####The article says so\\: plainly.\\nFrom “The sky & the \"grass\"”\\:\\n“The sky is blue.”",
        "}",
    ]


def test_a_several_answer_question_weighs_right_to_100_and_wrong_to_minus_100(document):
    lines = gift.write(document).decode().splitlines()
    start = lines.index("::colours-named::[plain]Which colours does the article name? {")
    assert lines[start + 1 : start + 4] == ["\t~%50%Blue", "\t~%50%Green", "\t~%-100%Purple"]
    assert lines[start + 4].startswith("\t####Two colours are named.\\nFrom ")
    assert lines[start + 4].endswith("\\n“The sky is blue.”\\n“The grass is green.”")


def test_weights_of_three_right_out_of_five():
    question = gift.OutgoingQuestion(
        "q", "multi", "medium", "Which?", (("a", True), ("b", True), ("c", True), ("d", False), ("e", False)),
        "Because.", (), (), None,
    )
    right, wrong = gift._weights(question)
    assert (right, wrong) == ("33.33333", "-50")
    assert abs(3 * float(right) - 100) < 0.001


def test_true_false_questions_are_true_or_false_with_the_general_feedback(document):
    lines = gift.write(document).decode().splitlines()
    assert (
        "::sunny::[plain]It is sunny today. {TRUE####The weather is fair.\\nFrom “The sky & the \"grass\"”\\:\\n“It’s sunny today.”}"
        in lines
    )
    # An unsourced question's feedback is its explanation alone.
    assert "::clouds::[plain]Clouds are grey. {FALSE####They are white.}" in lines


def test_escape_and_reading_back_are_inverse():
    text = "a ~ b = c # d { e } f : g \\ h\nnext line"
    written = f"::t::{gift.escape(text)} {{=yes ~no}}"
    assert gift.read(written.encode(), "t.gift").entries[0]["prompt"] == text


def test_the_reader_reads_the_writers_output_back_to_the_same_questions(document):
    read = questions_by_id(gift.read(gift.write(document), "bank.gift").entries)
    assert list(read) == [question["id"] for question in document["questions"]]
    for original in document["questions"]:
        again = read[original["id"]]
        for key in ("kind", "prompt", "choices", "correct", "time_limit"):
            assert again.get(key) == original.get(key), (original["id"], key)
        # The quiz's category comes back as a tag before the question's own.
        assert again["tags"] == ["colours-weather", *original.get("tags", [])]
        assert again.get("difficulty", "medium") == original.get("difficulty", "medium")
        # The feedback keeps the explanation first, then the quotes.
        assert again["explanation"].startswith(original["explanation"])
        for quote in original.get("source", []):
            assert f"“{quote}”" in again["explanation"]
        assert "quiz" not in again and "source" not in again


# Reading --------------------------------------------------------------------------------------

MOODLE_EXAMPLES = r"""// question: 1 name: Grants tomb
::Grants tomb::Who is buried in Grant's tomb in New York City? {
=Grant
~No one
#Was true for 12 years, but Grant's remains were buried in the tomb in 1897
~Napoleon
#He was buried in France
}

$CATEGORY: $course$/top/History

Grant was buried in a tomb in New York City.{T}

The sun rises in the west.{FALSE#Yes, it does not.#Right.####It rises in the east.}

Moodle costs {~lots of money =nothing ~a small amount} to download from moodle.org.

What two people are entombed in Grant's tomb? {
   ~%-100%No one
   ~%50%Grant
   ~%50%Grant's wife
   ~%-100%Grant's father
   ####Grant and his wife.
}

[html]What is <b>2 &amp; 2</b>?{=four ~five}
"""


def test_reads_moodles_examples():
    entries = gift.read(MOODLE_EXAMPLES.encode(), "examples.gift").entries
    # The questions after "$CATEGORY: $course$/top/History" are tagged with it.
    assert [entry.pop("tags", None) for entry in entries] == [None, *[["history"]] * 5]
    assert entries == [
        {
            "id": "grants-tomb", "kind": "single", "prompt": "Who is buried in Grant's tomb in New York City?",
            "choices": ["Grant", "No one", "Napoleon"], "correct": "Grant",
            "explanation": "The correct answer is: Grant",
        },
        {
            "id": "grant-was-buried-in-a-tomb-in-new-york-city", "kind": "true_false",
            "prompt": "Grant was buried in a tomb in New York City.", "correct": True,
            "explanation": "The correct answer is: True",
        },
        {
            "id": "the-sun-rises-in-the-west", "kind": "true_false", "prompt": "The sun rises in the west.",
            "correct": False, "explanation": "It rises in the east.",
        },
        {
            "id": "moodle-costs-to-download-from-moodle-org", "kind": "single",
            "prompt": "Moodle costs _____ to download from moodle.org.",
            "choices": ["lots of money", "nothing", "a small amount"], "correct": "nothing",
            "explanation": "The correct answer is: nothing",
        },
        {
            "id": "what-two-people-are-entombed-in-grant-s-tomb", "kind": "multi",
            "prompt": "What two people are entombed in Grant's tomb?",
            "choices": ["No one", "Grant", "Grant's wife", "Grant's father"], "correct": ["Grant", "Grant's wife"],
            "explanation": "Grant and his wife.",
        },
        {
            "id": "what-is-2-2", "kind": "single", "prompt": "What is 2 & 2?", "choices": ["four", "five"],
            "correct": "four", "explanation": "The correct answer is: four",
        },
    ]


def test_questions_with_the_same_title_get_distinct_ids():
    entries = gift.read(b"::Q::One? {=a ~b}\n\n::Q::Two? {=a ~b}\n\n::Q::Three? {=a ~b}\n", "q.gift").entries
    assert [entry["id"] for entry in entries] == ["q", "q-2", "q-3"]


def test_windows_line_endings_and_a_byte_order_mark_are_read():
    entries = gift.read("\ufeff// c\r\n::a::One? {\r\n=a\r\n~b\r\n}\r\n".encode(), "q.gift").entries
    assert entries[0]["choices"] == ["a", "b"]


def test_other_question_types_are_left_out_with_their_positions():
    text = (
        "::a:: What? {=x =y}\n"  # line 1: a short answer, which is read
        "\n"
        "::b:: Essay? {}\n"  # line 3
        "\n"
        "::c:: Two plus two {#4}\n"  # line 5: a numerical question, which is read
        "\n"
        "::d:: Match {=a -> b =c -> d}\n"  # line 7
        "\n"
        "::e:: Fine {=a ~b}\n"
        "\n"
        "::f:: Several numbers {#=4:0 =%50%5:0}\n"  # line 11
        "\n"
        "A description: what follows is about the film.\n"  # line 13
    )
    read = gift.read(text.encode(), "q.gift")
    assert [entry["id"] for entry in read.entries] == ["a", "c", "e"]
    supported = "only multiple choice, true/false, short answer and numerical can"
    assert [str(error) for error in read.skipped] == [
        f"q.gift:3:14: question 2: an essay question ({{}}) cannot be imported; {supported}",
        f"q.gift:7:17: question 4: a matching question (->) cannot be imported; {supported}",
        f"q.gift:11:24: question 6: a numerical question with several answers or feedback cannot be imported; {supported}",
        "q.gift:13:1: question 7: a description (text without answers in braces) cannot be imported; it has nothing to answer",
    ]
    assert errors_of(text, strict=True) == [str(error) for error in read.skipped]


def test_short_answers_and_numbers_are_read_as_typed_answers_and_number_questions():
    entries = gift.read(
        (
            "::coach:: Who coached first? {=Marie Tremblay =%100%Tremblay}\n\n"
            "::seats:: How many seats? {#1200:50####It holds 1,200.}\n\n"
            "::range:: Which year? {#1988..1992}\n\n"
            "::fill:: The rink opened in {=Ottawa} in 1990.\n"
        ).encode(),
        "q.gift",
    ).entries
    by_id = {entry["id"]: entry for entry in entries}
    assert by_id["coach"]["kind"] == "text" and by_id["coach"]["accept"] == ["Marie Tremblay", "Tremblay"]
    assert (by_id["seats"]["kind"], by_id["seats"]["answer"], by_id["seats"]["tolerance"]) == ("number", 1200, 50)
    assert by_id["seats"]["explanation"] == "It holds 1,200."
    assert (by_id["range"]["answer"], by_id["range"]["tolerance"]) == (1990, 2)
    assert by_id["range"]["explanation"] == "The correct answer is: 1990 (give or take 2)"
    assert by_id["fill"]["prompt"] == "The rink opened in _____ in 1990."
    assert by_id["fill"]["accept"] == ["Ottawa"]
    assert errors_of("::p:: Partial? {=right =%50%half}\n") == [
        "q.gift:1:1: no question in the file can be imported",
        "q.gift:1:24: question 1: partial credit (=%...%) on a typed answer cannot be kept; an answer is right or not"
    ]


def test_broken_questions_are_refused_with_their_positions():
    text = (
        "Fine? {=a ~b}\n"  # 1
        "\n"
        "Never closed {=a\n"  # 3
        "~b\n"
        "\n"
        "::untitled Which? {=a ~b}\n"  # 6
        "\n"
        "Nested {=a {~b}}\n"  # 8
        "\n"
        "Which? {=a ~%200%b}\n"  # 10
        "\n"
        "Which? {=a ~%50%b ~c}\n"  # 12: partial credit, left out
        "\n"
        "Which? {=a ~ #feedback only}\n"  # 14
        "\n"
        "{=a ~b}\n"  # 16
    )
    assert errors_of(text) == [
        "q.gift:3:14: question 2: this '{' is never closed by '}'",
        "q.gift:6:1: question 3: the title's '::' is never closed by another '::'",
        "q.gift:8:12: question 4: '{' inside the answers; write \\{ for a brace in a text",
        "q.gift:10:12: question 5: a weight is a percentage between -100 and 100, like ~%50%",
        "q.gift:14:12: question 7: this answer has no text",
        "q.gift:16:1: question 8: the question has no text before its answers",
    ]


def test_what_the_bank_refuses_is_left_out_at_the_question():
    seven = " ".join(f"~{n}" for n in range(2, 8))
    text = (
        f"Too many? {{=1 {seven}}}\n\nTwice? {{=a ~A}}\n\nAll right? {{~%50%a ~%50%b}}\n\n"
        "Partial? {=a ~%50%b ~c}\n\nFine? {=a ~b}\n"
    )
    read = gift.read(text.encode(), "q.gift")
    assert [entry["prompt"] for entry in read.entries] == ["Fine?"]
    assert [str(error) for error in read.skipped] == [
        "q.gift:1:12: question 1: a question has 2 to 6 choices; this one has 7",
        "q.gift:3:1: question 2: choice 2 ('A') repeats choice 1",
        "q.gift:5:1: question 3: a multi question needs at least one wrong choice",
        "q.gift:7:14: question 4: partial credit (~%...%) cannot be kept when another answer is marked =;"
        " a choice here is right or wrong",
    ]


def test_a_file_of_nothing_this_app_can_hold_is_refused():
    assert errors_of("Essay? {}\n\nA description.\n") == [
        "q.gift:1:1: no question in the file can be imported",
        "q.gift:1:8: question 1: an essay question ({}) cannot be imported;"
        " only multiple choice, true/false, short answer and numerical can",
        "q.gift:3:1: question 2: a description (text without answers in braces) cannot be imported; it has nothing to answer",
    ]


def test_ids_tags_difficulty_and_time_limit_are_read_from_the_comment_before_a_question():
    text = (
        "// [id:rink-seats] [tag:Venues] [tag:kiss\\]cry]\n"
        "// difficulty: hard; time limit: 30 s; unit: seats\n"
        "How many seats? {#1200:50}\n"
        "\n"
        "// A comment that says nothing of the question\n"
        "::Named:: Which? {=a ~b}\n"
    )
    seats, named = gift.read(text.encode(), "q.gift").entries
    assert (seats["id"], seats["tags"], seats["difficulty"], seats["time_limit"]) == (
        "rink-seats", ["venues", "kiss-cry"], "hard", 30,
    )
    assert seats["unit"] == "seats"
    assert named["id"] == "named" and "tags" not in named and "difficulty" not in named


def test_an_empty_file_has_no_questions():
    assert errors_of("// only a comment\n\n") == ["q.gift:1:1: no questions found in the file"]


def test_invalid_utf8_is_refused_at_its_byte():
    with pytest.raises(BankInvalid) as refused:
        gift.read("Which? {\n=é ".encode() + b"\xff~b}", "q.gift").entries
    # Columns count characters: "é" is two bytes but one column.
    assert [str(error) for error in refused.value.errors] == [
        "q.gift:2:4: invalid UTF-8 (byte 0xff); save the file as UTF-8"
    ]


def test_a_file_over_the_cap_is_refused_before_parsing():
    data = b"Which? {=a ~b}\n\n" * (MAX_UPLOAD_BYTES // 16 + 1)
    with pytest.raises(BankInvalid) as refused:
        gift.read(data, "big.gift").entries
    assert str(refused.value) == f"big.gift:1:1: file is {len(data):,} bytes; the limit is {MAX_UPLOAD_BYTES:,}"


def test_an_arrow_in_a_choice_of_a_multiple_choice_question_is_text():
    (entry,) = gift.read(b"Which way? {=left -> right ~up}", "q.gift").entries
    assert (entry["kind"], entry["choices"]) == ("single", ["left -> right", "up"])


def test_feedback_format_markers_and_html_comments_are_read_as_moodle_does():
    entries = gift.read(
        "::Capital::What is the capital of France? {=[plain]Paris#Yes, since 987. ~[plain]Lyon#No.}\n\n"
        "Water boils at 100 °C at sea level. {T#No: it does, at sea level.#Right: at sea level it does.}\n\n"
        "[html]<p>Which <b>river</b> runs through Paris?<!-- asked > twice --></p> {=Seine ~Loire}\n".encode(),
        "feedback.gift",
    ).entries
    capital, boiling, river = entries
    # The right answer's own feedback explains it when there is no general feedback (####).
    assert capital["choices"] == ["Paris", "Lyon"] and capital["correct"] == "Paris"
    assert capital["explanation"] == "Yes, since 987."
    assert boiling["correct"] is True and boiling["explanation"] == "Right: at sea level it does."
    assert river["prompt"] == "Which river runs through Paris?"


def test_what_html_cannot_keep_as_text_is_reported():
    read = gift.read(
        # "=" and ":" are GIFT's syntax, escaped in attributes as anywhere else.
        rb'[html]<p>Which river?</p><img src\="seine.jpg" alt\="A river"> {=<a href\="https\://example.org">Seine</a> ~Loire}',
        "river.gift",
    )
    assert read.entries[0]["prompt"] == "Which river?" and read.entries[0]["choices"] == ["Seine", "Loire"]
    assert [str(note) for note in read.notes] == [
        "river.gift:1:1: question 1: the question loses an image (seine.jpg), described as “A river”",
        "river.gift:1:1: question 1: the question loses the address of a link (https://example.org); its text is kept",
    ]


def test_texts_a_reader_would_take_for_weights_or_markers_are_written_behind_plain():
    question = gift.OutgoingQuestion(
        "free", "single", "easy", "[html] <b>Which</b> price?", (("%100% free", True), ("[moodle] five", False)),
        "[note] Nothing to pay.", (), (), None,
    )
    lines = gift._question_lines(question, gift.OutgoingQuiz(None, None, None, False, (question,)))
    assert lines[2] == "::free::[plain][html] <b>Which</b> price? {"
    assert lines[3:6] == ["\t=[plain]%100% free", "\t~[plain][moodle] five", "\t####[plain][note] Nothing to pay."]
    read = gift.read("\n".join(lines).encode(), "free.gift").entries[0]
    assert (read["prompt"], read["choices"], read["correct"]) == (
        "[html] <b>Which</b> price?", ["%100% free", "[moodle] five"], "%100% free",
    )
    assert read["explanation"] == "[note] Nothing to pay."


def test_a_percent_sign_starts_a_weight_only_before_digits_and_a_title_alone_is_the_question():
    (magic, title_only) = gift.read(
        "Which magic shows the code and runs it? {\n~ %run\n~ %pycat\n= %load\n}\n\n"
        "::What is a markup language?::\n{=Rules to annotate a text ~A programming language}\n".encode(),
        "teacher.gift",
    ).entries
    assert (magic["choices"], magic["correct"]) == (["%run", "%pycat", "%load"], "%load")
    assert title_only["prompt"] == "What is a markup language?"
    # A weight written with a decimal comma is a weight too (and partial credit, left out).
    read = gift.read(b"Which? {=a ~%25,5%b ~c}\n\nFine? {=a ~b}", "q.gift")
    assert [error.message for error in read.skipped] == [
        "partial credit (~%...%) cannot be kept when another answer is marked =; a choice here is right or wrong"
    ]
