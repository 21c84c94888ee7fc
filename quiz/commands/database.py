"""Commands on the app's database: import, export, init and the accounts (users)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click
from flask import current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade

from quiz import accounts, tokens
from quiz.bank import Bank, BankInvalid, load_bank
from quiz.bank.exporter import export_document
from quiz.bank.importer import import_bank, lock_bank
from quiz.commands import exit_with, write_file
from quiz.extensions import db
from quiz.formats import FORMATS, exporters
from quiz.models import User
from quiz.paths import bundled_bank, resource

#: Banks with at least this many questions show a progress bar while importing.
_PROGRESS_THRESHOLD = 500


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Report what would change, then change nothing.")
@with_appcontext
def import_command(file: Path, dry_run: bool) -> None:
    """Import a bank file in one transaction: add, revise and retire to match it."""
    # Read as YAML, a GIFT or Kahoot file would only be told where YAML stumbles in it.
    others = [entry for entry in FORMATS.values() if entry.name != "yaml" and file.suffix.lower() in entry.extensions]
    if others:
        labels = " or ".join(entry.label for entry in others)
        if any(entry.read is not None for entry in others):
            exit_with(
                f"{file}: quiz import reads bank files (YAML), not {labels} files. Convert it first "
                f"(quiz convert {file} questions.yaml), add the questions to a bank and import that, "
                f"or add them to a quiz on the admin's import page."
            )
        exit_with(f"{file}: quiz import reads bank files (YAML); {labels} files cannot be read yet.")
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
        # After any import or edit under way, which this one then replaces whole.
        lock_bank(db.session)
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
        write_file(out, data)



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
