"""Commands on bank and article files alone: check, lint and generate need no database."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import click
from pydantic import TypeAdapter, ValidationError

from quiz.bank import Bank, BankInvalid, load_bank
from quiz.bank.loader import MAX_BANK_BYTES
from quiz.bank.schema import Identifier
from quiz.bank.yamlfile import dump_yaml
from quiz.commands import exit_with, write_file


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--require-sources", is_flag=True, help="Refuse questions without a source quote instead of warning.")
def check_command(files: tuple[Path, ...], require_sources: bool) -> None:
    """Validate bank files without touching the database; exit 1 listing every error.

    A question without a source quote gets a warning, or is an error with --require-sources.
    """
    failed = False
    for file in files:
        try:
            bank = load_bank(file, max_bytes=MAX_BANK_BYTES)
            if require_sources and bank.unsourced:
                raise BankInvalid(list(bank.unsourced))
        except BankInvalid as invalid:
            failed = True
            for error in invalid.errors:
                click.echo(str(error), err=True)
            click.echo(f"{file}: {len(invalid.errors)} error(s)", err=True)
        else:
            for warning in bank.unsourced:
                click.echo(f"{warning} (warning)", err=True)
            click.echo(f"{file}: ok ({_count(bank)})")
    if failed:
        sys.exit(1)


def _count(bank: Bank) -> str:
    return f"{len(bank.articles)} article(s), {len(bank.quizzes)} quiz(zes), {len(bank.questions)} question(s)"


@click.command("lint")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one object per finding, for tools.")
def lint_command(files: tuple[Path, ...], output: str) -> None:
    """Report what gives answers away in each quiz of bank files; exit 1 with any finding.

    An answer is given away when it can be read in another question's prompt, choices or
    explanation, in the quote shown after another question, or in the quiz's title or
    description; a question gives its own away when its correct choice stands out by length
    or form. Near-duplicate prompts are reported too.
    """
    from quiz import giveaways

    found: list[giveaways.Placed] = []
    failed = False
    for file in files:
        try:
            found += giveaways.placed(load_bank(file, max_bytes=MAX_BANK_BYTES))
        except BankInvalid as invalid:
            failed = True
            for error in invalid.errors:
                click.echo(str(error), err=True)
    if output == "json":
        click.echo(json.dumps([item.as_json() for item in found], indent=2, ensure_ascii=False))
    else:
        for item in found:
            click.echo(str(item))
        click.echo(f"{len(found)} finding(s) in {len(files)} file(s)", err=True)
    if found or failed:
        sys.exit(1)



@click.command("generate")
@click.argument("article", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="The bank file to write; standard output without it.")
@click.option("--max", "max_questions", type=click.IntRange(min=1), help="Draft at most this many questions.")
@click.option("--bank", type=click.Path(dir_okay=False, path_type=Path), help="A bank file whose articles lend wrong choices.")
@click.option("--title", help="The article's title; by default its first line or heading.")
@click.option("--id", "article_id", metavar="ID", help="The id of the article and its quiz; by default made from the file name.")
@click.option("--names/--no-names", default=True, show_default=True, help=(
    "Ask for people, places and titles too, for the player to type; --no-names asks for dates, years and figures only."
))
def generate_command(
    article: Path, out: Path | None, max_questions: int | None, bank: Path | None, title: str | None,
    article_id: str | None, names: bool,
) -> None:
    """Draft sourced questions from an article (plain text or Markdown) as a bank file to review.

    Needs no database. The file holds the article's plain text, one quiz and the questions,
    and passes quiz check as it is; the same article always gives the same file.
    """
    from quiz.generator import draft_bank, read_article  # not imported for check and lint, which need none of it

    try:
        found_title, text = read_article(_read(article), str(article))
        other_texts = [entry.text for entry in load_bank(bank).articles] if bank is not None else []
    except BankInvalid as invalid:
        for error in invalid.errors:
            click.echo(str(error), err=True)
        exit_with(f"{len(invalid.errors)} error(s); nothing was written")
    identifier = article_id or re.sub(r"[^a-z0-9]+", "-", article.stem.lower()).strip("-")[:60].strip("-") or "article"
    try:
        TypeAdapter(Identifier).validate_python(identifier)
    except ValidationError:
        exit_with(f"--id {identifier!r}: an id is lowercase letters, digits, '-', '_' or '.'")
    document = draft_bank(
        text, title=title or found_title or article.stem.replace("-", " ").replace("_", " ").capitalize(),
        article_id=identifier, quiz_id=identifier, max_questions=max_questions, other_texts=other_texts, names=names,
    )
    data = dump_yaml(document).encode()
    if out is None:
        click.echo(data, nl=False)
    else:
        write_file(out, data)
    click.echo(f"{out or 'stdout'}: {len(document['questions'])} question(s) drafted; review them before importing", err=True)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        exit_with(f"{path}: cannot read: {exc.strerror}")
