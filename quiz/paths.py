"""Where the app's files are: inside the package when installed, at the top of a checkout otherwise."""

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def resource(name: str, *, installed_as: str | None = None) -> Path:
    """The path of ``name`` (templates, static, migrations, ...) for this installation.

    A wheel carries these files inside the package (see pyproject.toml); a source checkout
    keeps them next to the package.
    """
    installed = _PACKAGE / (installed_as or name)
    return installed if installed.exists() else _PACKAGE.parent / name


def bundled_bank() -> Path:
    """The bank shipped with the app: ``questions.yaml``."""
    return resource("questions.yaml", installed_as="bank_data/questions.yaml")
