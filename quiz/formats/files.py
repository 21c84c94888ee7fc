"""Format files on disk, for the command line: reading one as a bank document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from quiz.bank import BankError, BankInvalid, load_bank
from quiz.formats import FORMATS, Format, Read, bank_document, questions_document


def read_document(path: Path, source: Format, *, quiz: str | None = None) -> tuple[dict[str, Any], Read | None]:
    """The file at ``path`` as a bank document, and for another format than the bank's own,
    what its reader made of it (the questions left out, what they lost); raises
    :class:`BankInvalid` if the file is broken.

    A bank file is loaded and checked whole (its article files beside it); another format's
    questions are given ``quiz`` when it is set.
    """
    if source is FORMATS["yaml"]:
        return bank_document(load_bank(path)), None
    if source.read is None:
        raise ValueError(f"{source.label} files cannot be read")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise BankInvalid([BankError(str(path), 1, 1, "", f"cannot read file: {exc.strerror}")]) from None
    read = source.read(data, str(path))
    return questions_document(read.entries, quiz), read
