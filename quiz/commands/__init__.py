"""The command line's commands, one module per need: files alone, or the app and its database.

:mod:`quiz.cli` imports a module only when one of its commands runs, so that checking or
drafting a file never loads the web app.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

import click


def exit_with(message: str) -> NoReturn:
    """Say what went wrong on standard error and exit 1."""
    click.echo(message, err=True)
    sys.exit(1)


def write_file(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all; exit 1 saying why it cannot be written."""
    try:
        _write_atomically(path, data)
    except OSError as exc:
        exit_with(f"{path}: cannot write: {exc.strerror}")


def _write_atomically(path: Path, data: bytes) -> None:
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
