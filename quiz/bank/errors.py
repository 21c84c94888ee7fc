"""Errors found in a bank file, each with the place it was found."""

from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class BankError:
    """One problem, printed as ``file:line:col: location: message`` (line and column 1-based)."""

    file: str
    line: int
    column: int
    location: str
    message: str

    def __str__(self) -> str:
        where = f"{self.location}: " if self.location else ""
        return f"{self.file}:{self.line}:{self.column}: {where}{self.message}"


class BankInvalid(Exception):
    """A bank file cannot be used; ``errors`` lists every problem found, in file order."""

    def __init__(self, errors: list[BankError]):
        self.errors = sorted(errors)
        super().__init__("\n".join(str(error) for error in self.errors))


def format_location(loc: tuple[str | int, ...]) -> str:
    """``("questions", 3, "choices")`` -> ``questions[3].choices``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text
