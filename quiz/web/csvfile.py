"""CSV downloads."""

from __future__ import annotations

from collections.abc import Iterable

from flask import Response

from quiz.csvfile import csv_text


def csv_response(rows: Iterable[Iterable[object]], filename: str) -> Response:
    return Response(
        csv_text(rows), mimetype="text/csv", headers={"Content-Disposition": f'attachment; filename="{filename}"'}
    )
