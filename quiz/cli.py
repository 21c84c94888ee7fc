"""The command line: ``quiz check|lint|import|export|convert|generate|init|users``, also available as ``flask --app quiz ...``."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import NoReturn

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext
from flask_migrate import upgrade
from pydantic import TypeAdapter, ValidationError

from quiz import accounts, tokens
from quiz.bank import Bank, BankInvalid, load_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank
from quiz.bank.loader import MAX_BANK_BYTES
from quiz.bank.schema import Identifier
from quiz.bank.yamlfile import dump_yaml
from quiz.extensions import db
from quiz.formats import FORMATS, Format, exporters, format_for_filename, importers
from quiz.formats.files import read_document, write_atomically
from quiz.generator import draft_bank, read_article
from quiz.models import User
from quiz.paths import bundled_bank, resource

#: Banks with at least this many questions show a progress bar while importing.
_PROGRESS_THRESHOLD = 500


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


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Report what would change, then change nothing.")
@with_appcontext
def import_command(file: Path, dry_run: bool) -> None:
    """Import a bank file in one transaction: add, revise and retire to match it."""
    try:
        bank = load_bank(file, max_bytes=current_app.config["BANK_MAX_BYTES"])
    except BankInvalid as invalid:
        for error in invalid.errors:
            click.echo(str(error), err=True)
        click.echo(f"{file}: {len(invalid.errors)} error(s); nothing was imported", err=True)
        sys.exit(1)
    _import(bank, dry_run=dry_run)


def _import(bank: Bank, *, dry_run: bool) -> None:
    try:
        if len(bank.questions) >= _PROGRESS_THRESHOLD:
            with click.progressbar(length=len(bank.questions), label="Importing", file=sys.stderr) as bar:
                report = import_bank(db.session, bank, progress=bar.update)
        else:
            report = import_bank(db.session, bank)
        if dry_run:
            db.session.rollback()
        else:
            db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    for line in report.lines():
        click.echo(line)
    if dry_run:
        click.echo("Dry run: nothing was changed.")
    elif not report.changes_anything:
        click.echo("Nothing to change.")


@click.command("export")
@click.option(
    "--format", "format_name", type=click.Choice([entry.name for entry in exporters()]), default="yaml",
    show_default=True, help="yaml is the bank file format, the one quiz import reads.",
)
@click.option(
    "--out", type=click.Path(dir_okay=False, path_type=Path), help="The file to write; standard output without it."
)
@with_appcontext
def export_command(format_name: str, out: Path | None) -> None:
    """Write the bank in play (articles inline, sources included) in a file format."""
    writer = FORMATS[format_name].write
    assert writer is not None  # the choices are the exporters
    data = writer(export_document(db.session))
    if out is None:
        click.echo(data, nl=False)  # bytes go to the binary stream, unchanged
    else:
        _write(out, data)


@click.command("convert")
@click.argument("source", metavar="IN", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("target", metavar="OUT", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--from", "from_name", metavar="FORMAT", help="IN's format, when its extension does not say.")
@click.option("--to", "to_name", metavar="FORMAT", help="OUT's format, when its extension does not say.")
@click.option("--quiz", "quiz_id", metavar="ID", help="The quiz every read question is given.")
def convert_command(
    source: Path, target: Path, from_name: str | None, to_name: str | None, quiz_id: str | None
) -> None:
    """Convert questions from one file format to another, without touching the database.

    Formats come from the extensions (.gift, .aiken, .xlsx for Kahoot, .json for Open Trivia DB,
    .xml for Moodle XML, .csv, .yaml). A .yaml IN is a bank file, checked as quiz check does; a
    .yaml OUT holds the questions, to be added to a bank. OUT is written whole or not at all.
    """
    readable = [FORMATS["yaml"], *importers()]
    reader = _chosen_format(from_name, source, readable, "--from")
    writer = _chosen_format(to_name, target, exporters(), "--to")
    if quiz_id is not None:
        if reader is FORMATS["yaml"]:
            _exit("--quiz is for questions read from other formats; a bank file's questions have their quizzes")
        try:
            TypeAdapter(Identifier).validate_python(quiz_id)
        except ValidationError:
            _exit(f"--quiz {quiz_id!r}: an id is lowercase letters, digits, '-', '_' or '.'")
    try:
        document = read_document(source, reader, quiz=quiz_id)
    except BankInvalid as invalid:
        for error in invalid.errors:
            click.echo(str(error), err=True)
        _exit(f"{source}: {len(invalid.errors)} error(s); nothing was written")
    assert writer.write is not None  # chosen among the exporters
    _write(target, writer.write(document))
    click.echo(f"{target}: {len(document['questions'])} question(s) written as {writer.label}")


def _chosen_format(name: str | None, path: Path, allowed: list[Format], option: str) -> Format:
    """The format named by ``option``, else the one ``path``'s extension names; exit 1 if neither works."""
    names = ", ".join(entry.name for entry in allowed)
    if name is not None:
        chosen = FORMATS.get(name)
        if chosen not in allowed:
            _exit(f"{option} {name!r}: not one of {names}")
        return chosen
    guessed = format_for_filename(path.name)
    if guessed is None:
        _exit(f"{path}: cannot tell the format from the extension; name it with {option} ({names})")
    if guessed not in allowed:
        direction = "read" if option == "--from" else "written"
        _exit(f"{path}: {guessed.label} files cannot be {direction}; {option} can be {names}")
    return guessed


def _write(path: Path, data: bytes) -> None:
    try:
        write_atomically(path, data)
    except OSError as exc:
        _exit(f"{path}: cannot write: {exc.strerror}")


def _exit(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(1)


@click.command("generate")
@click.argument("article", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), help="The bank file to write; standard output without it.")
@click.option("--max", "max_questions", type=click.IntRange(min=1), help="Draft at most this many questions.")
@click.option("--bank", type=click.Path(dir_okay=False, path_type=Path), help="A bank file whose articles lend wrong choices.")
@click.option("--title", help="The article's title; by default its first line or heading.")
@click.option("--id", "article_id", metavar="ID", help="The id of the article and its quiz; by default made from the file name.")
def generate_command(
    article: Path, out: Path | None, max_questions: int | None, bank: Path | None, title: str | None,
    article_id: str | None,
) -> None:
    """Draft sourced questions from an article (plain text or Markdown) as a bank file to review.

    Needs no database. The file holds the article's plain text, one quiz and the questions,
    and passes quiz check as it is; the same article always gives the same file.
    """
    try:
        found_title, text = read_article(_read(article), str(article))
        other_texts = [entry.text for entry in load_bank(bank).articles] if bank is not None else []
    except BankInvalid as invalid:
        for error in invalid.errors:
            click.echo(str(error), err=True)
        _exit(f"{len(invalid.errors)} error(s); nothing was written")
    identifier = article_id or re.sub(r"[^a-z0-9]+", "-", article.stem.lower()).strip("-")[:60].strip("-") or "article"
    try:
        TypeAdapter(Identifier).validate_python(identifier)
    except ValidationError:
        _exit(f"--id {identifier!r}: an id is lowercase letters, digits, '-', '_' or '.'")
    document = draft_bank(
        text, title=title or found_title or article.stem.replace("-", " ").replace("_", " ").capitalize(),
        article_id=identifier, quiz_id=identifier, max_questions=max_questions, other_texts=other_texts,
    )
    data = dump_yaml(document).encode()
    if out is None:
        click.echo(data, nl=False)
    else:
        _write(out, data)
    click.echo(f"{out or 'stdout'}: {len(document['questions'])} question(s) drafted; review them before importing", err=True)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        _exit(f"{path}: cannot read: {exc.strerror}")


@click.command("init")
@with_appcontext
def init_command() -> None:
    """First run: bring the database schema up to date and import the bundled question bank."""
    upgrade(directory=str(resource("migrations")))
    bank = load_bank(bundled_bank(), max_bytes=current_app.config["BANK_MAX_BYTES"])
    _import(bank, dry_run=False)


@click.group("users")
def users_group() -> None:
    """Teacher and admin accounts. Players need none."""


def _read_password(from_stdin: bool) -> str:
    if from_stdin:
        # One line, so that ``echo "$PASSWORD" | quiz users create ...`` works.
        return sys.stdin.readline().rstrip("\r\n")
    return click.prompt("Password", hide_input=True, confirmation_prompt=True)


def _fail(message: str) -> NoReturn:
    db.session.rollback()
    click.echo(message, err=True)
    sys.exit(1)


def _existing_user(username: str) -> User:
    user = accounts.user_by_username(db.session, username)
    if user is None:
        _fail(f"No user named {accounts.normalize_username(username)!r}.")
    return user


_password_stdin_option = click.option(
    "--password-stdin", is_flag=True, help="Read the password from the first line of standard input."
)


@users_group.command("create")
@click.argument("username")
@click.option("--role", type=click.Choice(accounts.ROLES), default="teacher", show_default=True)
@_password_stdin_option
@with_appcontext
def create_user_command(username: str, role: str, password_stdin: bool) -> None:
    """Add an account; the password is asked for twice unless read from standard input."""
    try:
        # Checked before asking for a password, which would otherwise be typed twice for nothing.
        accounts.check_new_username(db.session, username)
        user = accounts.create_user(db.session, username, _read_password(password_stdin), role)
    except accounts.AccountError as error:
        _fail(str(error))
    db.session.commit()
    click.echo(f"Created {user.role} {user.username!r}.")


@users_group.command("list")
@with_appcontext
def list_users_command() -> None:
    """Every account with its role, whether it is active, and its last login (UTC)."""
    users = accounts.list_users(db.session)
    if not users:
        click.echo("No users yet: add one with quiz users create USERNAME.")
        return
    width = max(len("username"), *(len(user.username) for user in users))
    click.echo(f"{'username':<{width}}  {'role':<7}  {'active':<6}  last login (UTC)")
    for user in users:
        last = user.last_login_at.strftime("%Y-%m-%d %H:%M") if user.last_login_at else "never"
        click.echo(f"{user.username:<{width}}  {user.role:<7}  {'yes' if user.active else 'no':<6}  {last}")


@users_group.command("set-password")
@click.argument("username")
@_password_stdin_option
@with_appcontext
def set_password_command(username: str, password_stdin: bool) -> None:
    """Give an account a new password and log it out everywhere."""
    user = _existing_user(username)
    try:
        accounts.set_password(db.session, user, _read_password(password_stdin))
    except accounts.AccountError as error:
        _fail(str(error))
    db.session.commit()
    click.echo(f"Password of {user.username!r} changed; its sessions are ended.")


@users_group.command("disable")
@click.argument("username")
@with_appcontext
def disable_user_command(username: str) -> None:
    """Refuse an account's logins from now on and log it out everywhere."""
    user = _existing_user(username)
    accounts.disable_user(db.session, user)
    db.session.commit()
    click.echo(f"Disabled {user.username!r}; its sessions are ended.")


@users_group.group("token")
def token_group() -> None:
    """API tokens: how an account's programs use the JSON API (/api/v1)."""


@token_group.command("create")
@click.argument("username")
@click.option("--label", required=True, help="What the token is for, e.g. \"LMS sync\".")
@with_appcontext
def create_token_command(username: str, label: str) -> None:
    """Make a token for an account and print it, once: only its hash is kept.

    The token alone goes to standard output, so that TOKEN=$(quiz users token create ...) works.
    """
    user = _existing_user(username)
    try:
        record, token = tokens.create_token(db.session, user, label)
    except tokens.TokenError as error:
        _fail(str(error))
    db.session.commit()
    click.echo(token)
    click.echo(
        f"Token {record.id} ({record.label!r}) for {user.username!r}. Keep it secret: it is not shown again.", err=True
    )


@token_group.command("list")
@click.argument("username")
@with_appcontext
def list_tokens_command(username: str) -> None:
    """An account's tokens: id, first characters, label, when made, last used and revoked (UTC)."""
    user = _existing_user(username)
    records = tokens.tokens_of(db.session, user)
    if not records:
        click.echo(f"{user.username!r} has no tokens: make one with quiz users token create {user.username} --label L.")
        return

    def when(moment) -> str:
        return moment.strftime("%Y-%m-%d %H:%M") if moment else "never"

    click.echo(f"{'id':>4}  {'token':<14}  {'created':<16}  {'last used':<16}  {'revoked':<16}  label")
    for record in records:
        revoked = when(record.revoked_at) if record.revoked_at else "no"
        click.echo(
            f"{record.id:>4}  {record.prefix + '…':<14}  {when(record.created_at):<16}  {when(record.last_used_at):<16}"
            f"  {revoked:<16}  {record.label}"
        )


@token_group.command("revoke")
@click.argument("token_id", metavar="ID", type=click.IntRange(min=1, max=2**31 - 1))
@with_appcontext
def revoke_token_command(token_id: int) -> None:
    """Revoke a token by its id (see quiz users token list): it stops working at once."""
    record = tokens.revoke_token(db.session, token_id)
    if record is None:
        _fail(f"No token with id {token_id}.")
    db.session.commit()
    click.echo(f"Revoked token {record.id} ({record.label!r}) of {record.user.username!r}.")


@click.command("serve", context_settings={"ignore_unknown_options": True})
@click.argument("gunicorn_args", nargs=-1, type=click.UNPROCESSED)
def serve_command(gunicorn_args: tuple[str, ...]) -> None:
    """Run the production server (gunicorn with quiz/gunicorn_config.py); extra arguments go to gunicorn."""
    os.environ.setdefault("QUIZ_ENV", "production")
    os.execvp(
        sys.executable,
        [sys.executable, "-m", "gunicorn", "-c", "python:quiz.gunicorn_config", *gunicorn_args, "quiz:create_app()"],
    )


def init_app(app: Flask) -> None:
    for command in (
        check_command, lint_command, import_command, export_command, convert_command, generate_command, init_command, serve_command,
        users_group,
    ):
        app.cli.add_command(command)


def _create_app() -> Flask:
    from quiz import create_app

    return create_app()


#: The ``quiz`` console script: Flask's own commands (run, shell, db ...) plus ours.
main = FlaskGroup(name="quiz", create_app=_create_app, help="Sourced quizzes: check and import banks, run the app.")
# Added to the group itself as well, so that checking a file never needs to build the app.
main.add_command(check_command)
main.add_command(lint_command)
main.add_command(convert_command)
main.add_command(generate_command)
main.add_command(serve_command)
