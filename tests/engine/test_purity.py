"""The engine is pure: no Django, no clock, no global random."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = sorted((ROOT / "games" / "engine").glob("*.py")) + sorted(
    (ROOT / "games" / "bots").glob("*.py")
)


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module


@pytest.mark.parametrize("path", PURE, ids=[p.name for p in PURE])
def test_no_django_and_no_clock(path):
    roots = {name.split(".")[0] for name in _imports(path)}
    assert "django" not in roots
    # time is allowed only where speed is reported (the simulator), never in the rules.
    allowed_time = path.name in {"simulate.py", "arena.py"}
    assert allowed_time or not roots & {"time", "datetime"}


@pytest.mark.parametrize("path", PURE, ids=[p.name for p in PURE])
def test_no_global_random(path):
    """random is used only through random.Random(seed) instances."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "random":
            pytest.fail(f"{path.name}: from random import ...")
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name}:{node.lineno} uses random.{node.attr}"


def test_importing_the_engine_loads_no_django():
    code = "import sys, games.engine, games.bots.random_bot; print('django' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
