"""The articles the generator is measured on: the bundled one and those in bench/articles/."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import REPO

ARTICLE_FILES: list[Path] = [REPO / "articles" / "kiss-and-cry.txt", *sorted((REPO / "bench" / "articles").glob("*.txt"))]
