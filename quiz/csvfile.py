"""CSV for spreadsheets: UTF-8 with a byte order mark, and no cell that a spreadsheet would run."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable

#: Spreadsheets treat a cell starting with one of these as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: object) -> object:
    """``value``, with a leading apostrophe if it is text a spreadsheet would run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return f"'{value}"
    return value


def csv_text(rows: Iterable[Iterable[object]]) -> str:
    """The rows as CSV text, starting with the BOM that makes spreadsheet programs read UTF-8."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in rows:
        writer.writerow([safe_cell(cell) for cell in row])
    return "\ufeff" + buffer.getvalue()
