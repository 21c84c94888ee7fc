"""The articles the generator's tests draft: the bundled one and bench/articles/dev/ (never the
held-out sets, which only grading reads: see bench/articles/README.md)."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO

ARTICLE_FILES: list[Path] = [REPO / "articles" / "kiss-and-cry.txt", *sorted((REPO / "bench" / "articles" / "dev").glob("*.txt"))]
