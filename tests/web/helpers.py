"""Playing through the test client as a person would: read the page, fill the form, submit."""

from __future__ import annotations

import re

from tests.conftest import csrf_token

QUIZ = "/quizzes/kiss-and-cry"


def start_attempt(client, length: str = "standard", difficulty: str = "", *, quiz: str = QUIZ, headers=None) -> str:
    """Start an attempt from the page of ``quiz`` (a path); return the first question's URL."""
    page = client.get(quiz, headers=headers).get_data(as_text=True)
    response = client.post(
        f"{quiz}/attempts", headers=headers,
        data={"csrf_token": csrf_token(page), "length": length, "difficulty": difficulty},
    )
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.location


def choice_labels(html: str) -> list[str]:
    """The choices' texts in the order the page shows them."""
    return [
        re.sub(r"\s+", " ", text).strip()
        for text in re.findall(r'<span class="number" aria-hidden="true">\d+</span>(.*?)</label>', html, re.S)
    ]


def answer(client, url: str, *numbers: int):
    """Open the question at ``url`` and submit the given choice numbers."""
    page = client.get(url).get_data(as_text=True)
    return client.post(url, data={"csrf_token": csrf_token(page), "choice": [str(n) for n in numbers]})


def next_link(html: str) -> str:
    return re.search(r'data-next href="([^"]+)"', html).group(1)


def blind_fields(page: str) -> dict[str, str]:
    """An answer, right or not, for whatever kind of question ``page`` asks, as its form sends it."""
    places = re.findall(r'name="place-(\d+)"', page)
    if places:
        return {f"place-{number}": number for number in places}
    if 'name="number"' in page:
        return {"number": "1"}
    if 'name="text"' in page:
        return {"text": "a guess"}
    return {"choice": "1"}


def answer_blindly(client, url: str):
    """Open the question at ``url`` and submit some answer that fits it."""
    page = client.get(url).get_data(as_text=True)
    return client.post(url, data={"csrf_token": csrf_token(page), **blind_fields(page)})


def one_answer_question(client, url: str) -> str:
    """From the question at ``url``, answer blindly until a question of one answer among
    choices (radio buttons) comes up; its URL, or None when the attempt ends first."""
    while url and "/questions/" in url:
        page = client.get(url).get_data(as_text=True)
        if 'type="radio" name="choice"' in page:
            return url
        answer_blindly(client, url)
        url = next_link(client.get(url).get_data(as_text=True))
    return None
