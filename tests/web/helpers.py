"""Playing through the test client as a person would: read the page, fill the form, submit."""

from __future__ import annotations

import re

from tests.conftest import csrf_token

QUIZ = "/quizzes/kiss-and-cry"


def start_attempt(client, length: str = "standard", difficulty: str = "") -> str:
    """Start an attempt from the quiz page; return the first question's URL."""
    page = client.get(QUIZ).get_data(as_text=True)
    response = client.post(
        f"{QUIZ}/attempts", data={"csrf_token": csrf_token(page), "length": length, "difficulty": difficulty}
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
