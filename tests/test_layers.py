"""The package's floors: no module imports another that imports it back, and the domain never
reaches up into the web face or the request."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "quiz"
#: Modules of the domain and below: they take what they need as arguments.
DOMAIN = ("quiz.answering", "quiz.play", "quiz.live", "quiz.kinds", "quiz.revisions", "quiz.scores", "quiz.scoring",
          "quiz.stats", "quiz.refusals", "quiz.models", "quiz.bank", "quiz.formats", "quiz.generator")


def module_imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports when it is loaded
    (imports for type checking and inside functions left out)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts).removesuffix(".__init__")
        modules[name] = path
    graph = {}
    for name, path in modules.items():
        imported = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                continue
            if isinstance(node, ast.Import):
                imported |= {alias.name for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module:
                imported |= {
                    f"{node.module}.{alias.name}"
                    if f"{node.module}.{alias.name}" in modules or node.module == "flask" else node.module
                    for alias in node.names
                }
        # Importing a module of a package runs the package's __init__ first (but for the
        # module's own packages, which are initialising already).
        packages = {
            ".".join(other.split(".")[:depth])
            for other in imported
            for depth in range(2, other.count(".") + 1)
            if not name.startswith(".".join(other.split(".")[:depth]) + ".")
        }
        graph[name] = {other for other in imported | packages if other in modules and other != name} | {
            other for other in imported if other.startswith("flask")
        }
    return graph


def test_no_module_of_the_package_imports_one_that_imports_it_back():
    graph = module_imports()
    visiting, done, circles = [], set(), []

    def visit(module: str) -> None:
        if module in done:
            return
        if module in visiting:
            circles.append(visiting[visiting.index(module):] + [module])
            return
        visiting.append(module)
        for other in sorted(graph.get(module, ())):
            visit(other)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert circles == []


def test_the_domain_never_reads_the_request_or_imports_the_web():
    for module, imported in module_imports().items():
        if module.startswith(DOMAIN):
            assert not {name for name in imported if name.startswith("quiz.web")}, module
            assert "flask.request" not in imported and "flask.g" not in imported and "flask.session" not in imported, module


def test_the_file_commands_load_neither_the_web_app_nor_the_database_layer(tmp_path):
    # What keeps `quiz check` and `quiz generate` quick to start: bench/startup.py times them.
    script = (
        "import sys\n"
        "from quiz.cli import main\n"
        f"main(['check', {str(PACKAGE.parent / 'questions.yaml')!r}], standalone_mode=False)\n"
        f"main(['lint', {str(PACKAGE.parent / 'questions.yaml')!r}], standalone_mode=False)\n"
        f"main(['generate', {str(PACKAGE.parent / 'articles' / 'kiss-and-cry.txt')!r},"
        f" '--out', {str(tmp_path / 'draft.yaml')!r}], standalone_mode=False)\n"
        "print('\\n'.join(sorted(sys.modules)))\n"
    )
    finished = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    loaded = set(finished.stdout.split())
    assert (tmp_path / "draft.yaml").exists() and "quiz.commands.files" in loaded
    heavy = {"quiz.app", "quiz.web", "quiz.models", "quiz.formats", "sqlalchemy", "flask_sqlalchemy", "flask_migrate",
             "alembic", "openpyxl"}
    assert loaded.isdisjoint(heavy), loaded & heavy
