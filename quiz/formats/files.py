"""Format files on disk, for the command line: reading one as a bank document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quiz.bank import BankError, BankInvalid, load_bank
from quiz.formats import FORMATS, Format, bank_document, questions_document


def read_document(path: Path, source: Format, *, quiz: str | None = None) -> dict[str, Any]:
    """The file at ``path`` as a bank document; raises :class:`BankInvalid` if it is broken.

    A bank file is loaded and checked whole (its article files beside it); another format's
    questions are given ``quiz`` when it is set.
    """
    if source is FORMATS["yaml"]:
        return bank_document(load_bank(path))
    if source.read is None:
        raise ValueError(f"{source.label} files cannot be read")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BankInvalid([BankError(str(path), 1, 1, "", f"cannot read file: {exc.strerror}")]) from None
    return questions_document(source.read(data, str(path)), quiz)
