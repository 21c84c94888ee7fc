"""Question generator benchmark: time and yield per article, and time against length.

For each article file given (by default the bundled article and every article of
bench/articles/, every set), prints its words, the time to draft its questions (the best of five runs),
the questions drafted, how many a drafted bank keeps (those that give none of the others
away, as ``quiz lint`` checks) and the questions per 1,000 words; then the same for all of them
joined into one long text, the size the time bound is about (1,500 words within 2 s).

Then, with no files given or with ``--scaling``, the time against length: texts of about
1,500 words, 16 KiB, 64 KiB, 320 KiB and 1 MiB (``quiz generate`` takes up to 2 MiB) made
from the articles of bench/articles/, joined and repeated until they are long enough. Drafting
time should grow as the text does: a text twice as long takes about twice as long, not four
times. Each size is drafted twice over: the articles repeated as they are (the same values
again, so the questions stop growing) and repeated with their names changed in each copy
(new people, places and organisations each time, as in a long text, so more questions).

Article files keep their title on the first line and their address in an HTML comment on
the second (``<!-- https://... -->``); the Markdown reduction drops comments, so neither is
part of the text the questions come from.

    .venv/bin/python bench/generator.py
    .venv/bin/python bench/generator.py bench/articles/dev/actor-doris-day-dies-at-97.txt
    .venv/bin/python bench/generator.py --scaling
"""

from __future__ import annotations

import argparse
import re
import string
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from quiz.generator import draft_bank, generate_questions, read_article  # noqa: E402

RUNS = 5
#: The lengths of the scaling table: (label, size), a size in words or in bytes of UTF-8.
SIZES = (("1,500 words", ("words", 1500)), ("16 KiB", ("bytes", 16 * 1024)), ("64 KiB", ("bytes", 64 * 1024)),
         ("320 KiB", ("bytes", 320 * 1024)), ("1 MiB", ("bytes", 1024 * 1024)))
#: A size is drafted this many times, or fewer when that takes longer than :data:`SCALING_BUDGET` seconds.
SCALING_RUNS = 3
SCALING_BUDGET = 10.0


def measure(text: str, runs: int = RUNS, budget: float | None = None) -> tuple[float, int]:
    """The best time of ``runs`` runs (fewer once ``budget`` seconds are spent), in seconds,
    and the questions drafted."""
    best = float("inf")
    count = 0
    spent = 0.0
    for _ in range(runs):
        started = time.perf_counter()
        count = len(generate_questions(text))
        elapsed = time.perf_counter() - started
        best, spent = min(best, elapsed), spent + elapsed
        if budget is not None and spent > budget:
            break
    return best, count


def row(name: str, text: str) -> str:
    words = len(text.split())
    seconds, count = measure(text)
    # What a drafted bank keeps of them: none that gives another away (quiz lint).
    kept = len(draft_bank(text, title=name, article_id="article", quiz_id="quiz")["questions"])
    return f"| {name} | {words:,} | {seconds * 1000:.0f} ms | {count} | {kept} | {count * 1000 / words:.1f} |"


def renamed(text: str, copy: int) -> str:
    """``text`` with its capitalised words of four letters or more given a suffix for ``copy``
    (none for the first): the same sentences about other people, places and organisations."""
    if copy == 0:
        return text
    letters = string.ascii_lowercase
    suffix = letters[copy % 26] * (1 + copy // 26)
    return re.sub(r"\b([A-Z][a-z]{3,})\b", lambda match: match.group(1) + suffix, text)


def sized(texts: list[str], size: tuple[str, int], rename: bool) -> str:
    """Whole paragraphs of ``texts`` joined, repeated as often as needed, up to ``size``
    (words or bytes of UTF-8): the same text for the same arguments, on any machine."""
    unit, amount = size
    paragraphs: list[str] = []
    total, copy = 0, 0
    while True:
        for text in texts:
            for paragraph in renamed(text, copy if rename else 0).split("\n\n"):
                length = len(paragraph.split()) if unit == "words" else len(paragraph.encode()) + 2
                if paragraphs and total + length > amount:
                    return "\n\n".join(paragraphs)
                paragraphs.append(paragraph)
                total += length
        copy += 1


def scaling(texts: list[str]) -> None:
    """Print the time against length (see the module's docstring)."""
    print("| text | size | words | time | questions | time per 1,000 words |")
    print("| --- | --- | --- | --- | --- | --- |")
    for rename in (False, True):
        for label, size in SIZES:
            text = sized(texts, size, rename)
            words = len(text.split())
            seconds, count = measure(text, SCALING_RUNS, SCALING_BUDGET)
            name = f"{label}, {'names changed' if rename else 'repeated'}"
            print(
                f"| {name} | {len(text.encode()) / 1024:,.0f} KiB | {words:,} | {seconds:.2f} s | {count} "
                f"| {seconds * 1000 * 1000 / words:.0f} ms |",
                flush=True,
            )


def main(paths: list[Path], *, per_article: bool = True, scale: bool = False) -> None:
    texts = []
    if per_article:
        print("| article | words | time | questions | kept in the draft | per 1,000 words |")
        print("| --- | --- | --- | --- | --- | --- |")
    for path in paths:
        _, text = read_article(path.read_bytes(), str(path))
        texts.append(text)
        if per_article:
            print(row(path.stem, text), flush=True)
    if per_article and len(texts) > 1:
        print(row(f"all {len(texts)} joined", "\n\n".join(texts)))
    if scale:
        if per_article:
            print()
        bench_articles = sorted((REPO / "bench" / "articles").glob("*/*.txt"))
        scaling([read_article(path.read_bytes(), str(path))[1] for path in bench_articles])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("articles", nargs="*", type=Path, help="article files (default: the bundled article and those of bench/articles/)")
    parser.add_argument("--scaling", action="store_true", help="only the time against length")
    args = parser.parse_args()
    default = [REPO / "articles" / "kiss-and-cry.txt", *sorted((REPO / "bench" / "articles").glob("*/*.txt"))]
    main(args.articles or default, per_article=not args.scaling, scale=args.scaling or not args.articles)
