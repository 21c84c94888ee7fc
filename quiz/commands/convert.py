"""``quiz convert``: questions from one interchange format to another, without a database."""

from __future__ import annotations

from pathlib import Path

import click
from pydantic import TypeAdapter, ValidationError

from quiz.bank import BankInvalid
from quiz.bank.schema import Identifier
from quiz.commands import exit_with, write_file
from quiz.formats import FORMATS, Format, exporters, format_for_filename, importers
from quiz.formats.files import read_document


@click.command("convert")
@click.argument("source", metavar="IN", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("target", metavar="OUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "from_name", metavar="FORMAT", help="IN's format, when its extension does not say.")
@click.option("--to", "to_name", metavar="FORMAT", help="OUT's format, when its extension does not say.")
@click.option("--quiz", "quiz_id", metavar="ID", help="The quiz every read question is given.")
@click.option(
    "--strict", is_flag=True,
    help="Write nothing if any question of IN must be left out (a kind this app cannot hold).",
)
def convert_command(
    source: Path, target: Path, from_name: str | None, to_name: str | None, quiz_id: str | None, strict: bool,
) -> None:
    """Convert questions from one file format to another, without touching the database.

    Formats come from the extensions (.gift, .aiken, .xlsx for Kahoot, .json for Open Trivia DB,
    .xml for Moodle XML, .csv, .yaml). A .yaml IN is a bank file, checked as quiz check does; a
    .yaml OUT holds the questions, to be added to a bank. OUT is written whole or not at all.

    Questions of IN that this app cannot hold (an essay, a matching question) are left out, each
    named with its place and why; with --strict, nothing is written if any is.
    """
    readable = [FORMATS["yaml"], *importers()]
    reader = _chosen_format(from_name, source, readable, "--from")
    writer = _chosen_format(to_name, target, exporters(), "--to")
    if quiz_id is not None:
        if reader is FORMATS["yaml"]:
            exit_with("--quiz is for questions read from other formats; a bank file's questions have their quizzes")
        try:
            TypeAdapter(Identifier).validate_python(quiz_id)
        except ValidationError:
            exit_with(f"--quiz {quiz_id!r}: an id is lowercase letters, digits, '-', '_' or '.'")
    try:
        document, read = read_document(source, reader, quiz=quiz_id)
        if strict and read is not None:
            read.strict()
    except BankInvalid as invalid:
        for error in invalid.errors:
            click.echo(str(error), err=True)
        exit_with(f"{source}: {len(invalid.errors)} error(s); nothing was written")
    assert writer.write is not None  # chosen among the exporters
    write_file(target, writer.write(document))
    if read is not None:
        for note in read.notes:
            click.echo(f"{note} (kept the rest of the question)", err=True)
        for skipped in read.skipped:
            click.echo(f"{skipped} (left out)", err=True)
    summary = f"{target}: {len(document['questions'])} question(s) written as {writer.label}"
    if read is not None and read.skipped:
        summary += f"; {len(read.skipped)} left out of {source} (listed above; --strict refuses such a file)"
    click.echo(summary)


def _chosen_format(name: str | None, path: Path, allowed: list[Format], option: str) -> Format:
    """The format named by ``option``, else the one ``path``'s extension names; exit 1 if neither works."""
    names = ", ".join(entry.name for entry in allowed)
    if name is not None:
        chosen = FORMATS.get(name)
        if chosen not in allowed:
            exit_with(f"{option} {name!r}: not one of {names}")
        return chosen
    guessed = format_for_filename(path.name)
    if guessed is None:
        exit_with(f"{path}: cannot tell the format from the extension; name it with {option} ({names})")
    if guessed not in allowed:
        direction = "read" if option == "--from" else "written"
        exit_with(f"{path}: {guessed.label} files cannot be {direction}; {option} can be {names}")
    return guessed
