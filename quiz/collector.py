"""Python's cyclic garbage collector, paused while long-lived objects are made by the many."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block. It otherwise walks the hundreds of
    thousands of objects that imports or a large bank make again and again while they are
    made (a third of the time of a bank's load). Reference counting still frees what is
    dropped; the few cycles made meanwhile are collected once the collector resumes."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
