"""A regular (non-editable) install ships and serves the templates, static files, migrations
and the bundled bank, which live at the top of the repository rather than in the package, and
the compiled French catalog."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow

_SMOKE = textwrap.dedent(
    """
    import pathlib, sys
    import quiz
    from quiz import create_app
    assert pathlib.Path(quiz.__file__).is_relative_to(sys.argv[1]), quiz.__file__
    app = create_app()
    result = app.test_cli_runner().invoke(args=["init"])
    assert result.exit_code == 0, result.output
    client = app.test_client()
    home = client.get("/")
    assert home.status_code == 200 and "Kiss &amp; Cry" in home.get_data(as_text=True)
    assert client.get("/static/css/quiz.css").status_code == 200
    assert client.get("/static/js/quiz.js").status_code == 200
    assert client.get("/articles/kiss-and-cry").status_code == 200
    french = client.get("/", headers={"Accept-Language": "fr-CA"}).get_data(as_text=True)
    assert '<html lang="fr-CA">' in french and "Chaque réponse" in french
    print("served from", pathlib.Path(quiz.__file__).parent)
    """
)


def test_a_wheel_install_serves_templates_static_files_and_the_bank(tmp_path):
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(target), str(REPO)],
        check=True,
        capture_output=True,
    )
    for shipped in ("templates/base.html", "static/css/quiz.css", "migrations/env.py", "bank_data/questions.yaml",
                    "translations/fr_CA/LC_MESSAGES/messages.mo"):
        assert (target / "quiz" / shipped).is_file(), shipped

    workdir = tmp_path / "elsewhere"
    workdir.mkdir()
    env = {
        **os.environ,
        "PYTHONPATH": str(target),
        "QUIZ_SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'installed.sqlite3'}",
        "QUIZ_SECRET_KEY": "x" * 48,
    }
    result = subprocess.run(
        [sys.executable, "-c", _SMOKE, str(target)], cwd=workdir, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    assert str(target / "quiz") in result.stdout
