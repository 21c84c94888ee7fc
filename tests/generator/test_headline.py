"""The quiz's title: the headline less what the drafted questions ask."""

from quiz.generator.headline import quiz_title, states


def single(correct: str) -> dict:
    return {"id": "q", "kind": "single", "choices": [correct, "other"], "correct": correct}


def test_a_value_goes_with_the_words_that_bring_it_in():
    assert quiz_title("Influential rock drummer Ginger Baker dies at age 80", [{"answer": 80}]) == (
        "Influential rock drummer Ginger Baker dies"
    )
    assert quiz_title("Face coverings to be mandatory in England from June 15, minister declares", [single("June 15")]) == (
        "Face coverings to be mandatory in England, minister declares"
    )


def test_a_count_goes_and_the_noun_it_counts_stays():
    assert quiz_title("Highway pileup kills five children, two truck drivers", [{"answer": 5}]) == (
        "Highway pileup kills children, two truck drivers"
    )


def test_a_typed_figure_goes_with_its_unit_in_digits_words_or_with_thousands_commas():
    assert quiz_title("Ice centre opens after fourteen months", [{"answer": 14, "unit": "months"}]) == "Ice centre opens"
    assert quiz_title("Crowd of 2,430 sees first match in new arena", [{"answer": 2430}]) == "Crowd sees first match in new arena"


def test_a_name_at_the_head_of_a_list_goes_with_its_comma():
    assert quiz_title("Benin, Nigeria join free trade bloc", [single("Benin")]) == "Nigeria join free trade bloc"


def test_only_whole_words_go():
    assert quiz_title("Storm season of 2019 ends in 20 hours", [single("2019")]) == "Storm season ends in 20 hours"
    assert quiz_title("Storm season of 2019 ends in 20 hours", [{"answer": 20}]) == "Storm season of 2019 ends hours"


def test_a_headline_with_none_of_the_answers_is_kept_as_it_is():
    assert quiz_title("Greta Thunberg named Time Person of the Year", [single("1922"), {"answer": 7}]) == (
        "Greta Thunberg named Time Person of the Year"
    )


def test_the_whole_headline_stays_when_too_little_would_be_left():
    assert quiz_title("Doris Day dies at 97", [single("Doris Day"), {"answer": 97}]) == "Doris Day dies at 97"


def test_a_name_stays_in_the_title_and_its_question_goes():
    typed = {"id": "q", "kind": "text", "accept": ["Ginger Baker", "Baker"], "fuzzy": True}
    assert quiz_title("Rock drummer Ginger Baker dies at age 80", [typed, {"answer": 80}]) == "Rock drummer Ginger Baker dies"
    assert states("Rock drummer Ginger Baker dies", typed)
    assert states("Drummer Baker dies", typed) and not states("Drummer dies at 80", typed)
