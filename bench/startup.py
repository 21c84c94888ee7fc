"""Start-up benchmark: how long whole ``quiz`` command-line runs take, as an admin waits for them.

Runs ``quiz generate ARTICLE`` and ``quiz check BANK`` as new processes (the installed console
script, so Python's own start-up counts) and prints the median and the worst of several runs.
File commands should not load the web app or the database layer: on a 2-core machine each run
should take at most 0.5 s for an article of about 1,500 words.

    .venv/bin/python bench/startup.py
    .venv/bin/python bench/startup.py --article bench/articles/dev/actor-doris-day-dies-at-97.txt --runs 20
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
QUIZ = Path(sys.executable).parent / "quiz"
ARTICLES = REPO / "bench" / "articles"


def _article_of_about(words: int) -> Path:
    """A text of about ``words`` words: whole paragraphs of the dev articles, in a temporary file."""
    paragraphs: list[str] = []
    total = 0
    for path in sorted(ARTICLES.glob("dev/*.txt")):
        for paragraph in path.read_text(encoding="utf-8").split("\n\n")[1:]:  # the headline stays out
            if total + len(paragraph.split()) > words:
                break
            paragraphs.append(paragraph)
            total += len(paragraph.split())
    handle = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8")
    handle.write("\n\n".join(paragraphs))
    handle.close()
    return Path(handle.name)


def _timed(command: list[str], runs: int) -> list[float]:
    subprocess.run(command, check=True, capture_output=True)  # warm the file cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--article", type=Path, help="the article to draft from; by default ~1,500 words of bench/articles")
    parser.add_argument("--bank", type=Path, default=REPO / "questions.yaml")
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    article = args.article or _article_of_about(1500)
    words = len(article.read_text(encoding="utf-8").split())
    commands = {
        f"quiz generate ({words} words)": [str(QUIZ), "generate", str(article)],
        f"quiz check {args.bank.name}": [str(QUIZ), "check", str(args.bank)],
        "python -c pass (the floor)": [sys.executable, "-c", "pass"],
    }
    print(f"{'command':<40} {'median':>8} {'worst':>8}   ({args.runs} runs each)")
    for label, command in commands.items():
        times = _timed(command, args.runs)
        print(f"{label:<40} {statistics.median(times):>7.3f}s {max(times):>7.3f}s")


if __name__ == "__main__":
    main()
