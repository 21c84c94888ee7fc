"""Format files on disk, for the command line: reading one as a bank document, writing one whole."""

from __future__ import annotations

import contextlib
import os
import tempfile
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


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that the file is never seen half-written: into a temporary
    file beside it, then renamed over it."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private; the result gets the permissions of any new file.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
