"""The command line: ``quiz check|import|init``, also available as ``flask --app quiz ...``."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext
from flask_migrate import upgrade

from quiz.bank import Bank, BankInvalid, load_bank
from quiz.bank.importer import import_bank
from quiz.bank.loader import MAX_BANK_BYTES
from quiz.extensions import db
from quiz.paths import bundled_bank, resource

#: Banks with at least this many questions show a progress bar while importing.
_PROGRESS_THRESHOLD = 500


@click.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
def check_command(files: tuple[Path, ...]) -> None:
    """Validate bank files without touching the database; exit 1 listing every error."""
    failed = False
    for file in files:
        try:
            bank = load_bank(file, max_bytes=MAX_BANK_BYTES)
        except BankInvalid as invalid:
            failed = True
            for error in invalid.errors:
                click.echo(str(error), err=True)
            click.echo(f"{file}: {len(invalid.errors)} error(s)", err=True)
        else:
            click.echo(f"{file}: ok ({_count(bank)})")
    if failed:
        sys.exit(1)


def _count(bank: Bank) -> str:
    return f"{len(bank.articles)} article(s), {len(bank.quizzes)} quiz(zes), {len(bank.questions)} question(s)"


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


@click.command("init")
@with_appcontext
def init_command() -> None:
    """First run: bring the database schema up to date and import the bundled question bank."""
    upgrade(directory=str(resource("migrations")))
    bank = load_bank(bundled_bank(), max_bytes=current_app.config["BANK_MAX_BYTES"])
    _import(bank, dry_run=False)


def init_app(app: Flask) -> None:
    for command in (check_command, import_command, init_command):
        app.cli.add_command(command)


def _create_app() -> Flask:
    from quiz import create_app

    return create_app()


#: The ``quiz`` console script: Flask's own commands (run, shell, db ...) plus ours.
main = FlaskGroup(name="quiz", create_app=_create_app, help="Sourced quizzes: check and import banks, run the app.")
# Added to the group itself as well, so that checking a file never needs to build the app.
main.add_command(check_command)
