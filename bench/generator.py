"""Question generator benchmark: time and yield per article.

For each article file given (by default the bundled article and every file in
bench/articles/), prints its words, the time to draft its questions (the best of five runs),
the questions drafted and the questions per 1,000 words; then the same for all of them
joined into one long text, the size the time bound is about (1,500 words within 2 s).

Article files keep their title on the first line and their address in an HTML comment on
the second (``<!-- https://... -->``); the Markdown reduction drops comments, so neither is
part of the text the questions come from.

    .venv/bin/python bench/generator.py
    .venv/bin/python bench/generator.py bench/articles/cisco-acacia.txt
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quiz.generator import generate_questions, read_article  # noqa: E402

RUNS = 5


def measure(text: str) -> tuple[float, int]:
    """The best time of :data:`RUNS` runs, in seconds, and the questions drafted."""
    best = float("inf")
    count = 0
    for _ in range(RUNS):
        started = time.perf_counter()
        count = len(generate_questions(text))
        best = min(best, time.perf_counter() - started)
    return best, count


def row(name: str, text: str) -> str:
    words = len(text.split())
    seconds, count = measure(text)
    return f"| {name} | {words:,} | {seconds * 1000:.0f} ms | {count} | {count * 1000 / words:.1f} |"


def main(paths: list[Path]) -> None:
    texts = []
    print("| article | words | time | questions | per 1,000 words |")
    print("| --- | --- | --- | --- | --- |")
    for path in paths:
        _, text = read_article(path.read_bytes(), str(path))
        texts.append(text)
        print(row(path.stem, text), flush=True)
    if len(texts) > 1:
        print(row(f"all {len(texts)} joined", "\n\n".join(texts)))


if __name__ == "__main__":
    given = [Path(argument) for argument in sys.argv[1:]]
    main(given or [REPO / "articles" / "kiss-and-cry.txt", *sorted((REPO / "bench" / "articles").glob("*.txt"))])
