"""The import graph of the project's own modules, read from the source (ast): every import,
at module level or inside a function, is an edge, so that a function-level import cannot hide
a cycle.

- no cycle among the modules;
- no cycle among the packages (the apps ``accounts``, ``games``, ``api``, the project
  ``nyet_site`` and the helpers they share, ``common``), counting every import,
  ``AppConfig.ready``'s too: ``games`` may import ``accounts``, never the other way, and
  ``common`` imports none of them;
- the only function-level imports of the project's modules are in ``AppConfig.ready``, where
  Django wants them (the apps are loaded by then);
- the write path (``games.actions``) never imports the tasks that call it: it queues them by
  name (``games.queue``);
- ``accounts`` never imports the games' actions: a deleted account's seats are released through
  the hook the games register (``accounts.actions.before_deletion``).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("accounts", "api", "common", "games", "nyet_site")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_modules() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" not in path.parts:
                modules[module_name(path)] = path
    return modules


MODULES = project_modules()


def _imports(path: Path, name: str):
    """(imported module, in a function?, in AppConfig.ready?) for each import of ``path``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())

    def walk(node, function: str | None):
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Import):
                for alias in child.names:
                    yield alias.name, function
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    yield (sub if sub in MODULES else base), function
            yield from walk(child, inner)

    for target, function in walk(tree, None):
        if target in MODULES:
            yield target, function is not None, function == "ready" and path.name == "apps.py"


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """Edges between project modules (``ready`` imports left out), and the function-level
    imports outside ``ready``."""
    edges = {name: set() for name in MODULES}
    hidden = []
    for name, path in MODULES.items():
        for target, in_function, in_ready in _imports(path, name):
            if in_ready:
                continue
            edges[name].add(target)
            if in_function:
                hidden.append(f"{name} -> {target}")
    return edges, hidden


def reachable(edges, start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for target in edges[todo.pop()]:
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def package_graph() -> dict[str, dict[str, list[str]]]:
    """Package -> the packages it imports -> the module imports that make each edge. Every
    import counts, ``AppConfig.ready``'s too: an app that needs another package once loaded
    still depends on it."""
    edges: dict[str, dict[str, list[str]]] = {package: {} for package in PACKAGES}
    for name, path in MODULES.items():
        for target, _, _ in _imports(path, name):
            source, imported = name.partition(".")[0], target.partition(".")[0]
            if source != imported:
                edges[source].setdefault(imported, []).append(f"{name} -> {target}")
    return edges


def test_no_import_cycle():
    edges, _ = graph()
    cycles = sorted(name for name in edges if name in reachable(edges, name))
    assert cycles == []


def test_no_import_cycle_between_packages():
    edges = package_graph()
    cycles = {
        package: edges[package]
        for package in PACKAGES
        if package in reachable({p: set(t) for p, t in edges.items()}, package)
    }
    assert cycles == {}


def test_the_shared_helpers_import_no_app():
    assert package_graph()["common"] == {}


def test_function_level_imports_are_only_in_app_ready():
    assert graph()[1] == []


def test_the_actions_do_not_import_the_tasks():
    edges, _ = graph()
    actions = [name for name in edges if name.startswith("games.actions")]
    assert actions
    for name in actions:
        assert "games.tasks" not in reachable(edges, name), name


def test_accounts_do_not_import_the_games_actions():
    edges, _ = graph()
    for name in (n for n in edges if n.startswith("accounts")):
        assert not any(t.startswith("games.actions") for t in reachable(edges, name)), name


def test_the_graph_sees_function_level_imports_and_cycles(tmp_path):
    """The reading above finds what it looks for: a function-level import, and a cycle made
    only through one."""
    MODULES["accounts.fake_a"] = tmp_path / "fake_a.py"
    MODULES["accounts.fake_b"] = tmp_path / "fake_b.py"
    try:
        MODULES["accounts.fake_a"].write_text("from accounts import fake_b\n")
        MODULES["accounts.fake_b"].write_text("def f():\n    from . import fake_a\n")
        edges, hidden = graph()
        assert "accounts.fake_b -> accounts.fake_a" in hidden
        assert "accounts.fake_a" in reachable(edges, "accounts.fake_a")
    finally:
        del MODULES["accounts.fake_a"], MODULES["accounts.fake_b"]


def test_the_package_graph_sees_cycles_between_packages(tmp_path):
    """An import back from ``accounts`` to ``games``, even in ``ready``, is a cycle between the
    packages; an import of an app by ``common`` is seen."""
    MODULES["accounts.fake_apps"] = tmp_path / "apps.py"
    MODULES["common.fake"] = tmp_path / "fake.py"
    try:
        MODULES["accounts.fake_apps"].write_text(
            "class Config:\n    def ready(self):\n        from games import models\n"
        )
        MODULES["common.fake"].write_text("import nyet_site.urls\n")
        edges = package_graph()
        assert edges["accounts"]["games"] == ["accounts.fake_apps -> games.models"]
        assert "accounts" in reachable({p: set(t) for p, t in edges.items()}, "accounts")
        assert edges["common"] == {"nyet_site": ["common.fake -> nyet_site.urls"]}
    finally:
        del MODULES["accounts.fake_apps"], MODULES["common.fake"]


def test_the_deletion_hook_is_registered():
    from accounts.actions import _BEFORE_DELETION
    from games.actions import release_seats

    assert release_seats in _BEFORE_DELETION.values()
