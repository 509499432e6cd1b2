"""The project reaches allauth, Django and Celery (with kombu, Celery's transport) only through
their public APIs, in the code and in the tests, read from the source (ast):

- no import of a module path with an ``internal`` or ``_private`` part, nor of a ``_private``
  name, from those libraries;
- no patch of a library module's globals by dotted path (``monkeypatch.setattr("allauth...")``,
  ``mock.patch("django...")``): a module's clock or helpers are its own;
- no ``_private`` attribute set (assignment, ``setattr``, ``monkeypatch.setattr``,
  ``mock.patch.object``) on a name bound to one of those libraries: imported from it, or the
  site's Celery app.

What the check cannot see: an object of a library reached through a local variable (a channel
from a connection). ``EXCEPTIONS`` lists the deliberate uses, each with its reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("accounts", "api", "common", "games", "nyet_site", "tests", "benchmarks", "examples")
LIBRARIES = ("allauth", "django", "celery", "kombu")
# Names bound to a library's object although imported from the project.
PROJECT_BOUND = {"nyet_site.celery": {"app"}}
PATCHERS = {"setattr", "patch", "object", "delattr"}  # monkeypatch.*, mock.patch(.object)

EXCEPTIONS = {
    "accounts/adapter.py: imports allauth.core.internal": (
        "allauth says neither which limit refused nor when it ends, and its 429 handler gets "
        "the request alone: the handler's Retry-After (README, Rate limits) reads allauth's "
        "counts, failed logins aside (the site counts those: accounts/failed_logins.py)"
    ),
    "nyet_site/worker.py: sets kombu_redis.Channel._connparams": (
        "kombu's Redis channel fails with an AttributeError that Celery takes for "
        "unrecoverable when it needs a client after its connection was lost; kombu has no "
        "hook for it (tests/games/test_worker_reconnects.py)"
    ),
}


def is_library(module: str) -> bool:
    return module.split(".")[0] in LIBRARIES


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def is_hidden(module: str) -> bool:
    return any(part == "internal" or is_private(part) for part in module.split("."))


def root_name(node: ast.AST) -> str | None:
    while isinstance(node, ast.Attribute | ast.Call | ast.Subscript):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


def dotted(node: ast.AST) -> str:
    return ast.unparse(node)


def findings(source: str) -> list[str]:
    """What ``source`` does against the libraries' public APIs, one line each."""
    tree = ast.parse(source)
    bound: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_library(alias.name):
                    bound.add(alias.asname or alias.name.split(".")[0])
                    if is_hidden(alias.name):
                        found.append(f"imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module in PROJECT_BOUND:
                bound |= {a.asname or a.name for a in node.names} & PROJECT_BOUND[node.module]
            if not is_library(node.module):
                continue
            bound |= {alias.asname or alias.name for alias in node.names}
            if is_hidden(node.module):
                found.append(f"imports {node.module}")
            found += [
                f"imports {node.module}.{alias.name}"
                for alias in node.names
                if is_private(alias.name)
            ]

    def sets(target: ast.AST, attribute: str) -> None:
        if is_private(attribute) and root_name(target) in bound:
            found.append(f"sets {dotted(target)}.{attribute}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute):
                    sets(target.value, target.attr)
        elif isinstance(node, ast.Call) and node.args:
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            name = name or (node.func.id if isinstance(node.func, ast.Name) else None)
            first = node.args[0]
            if name not in PATCHERS:
                continue
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                if is_library(first.value) and "." in first.value:
                    found.append(f"patches {first.value}")
            elif len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                if isinstance(node.args[1].value, str):
                    sets(first, node.args[1].value)
    return found


def project_findings() -> list[str]:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            relative = path.relative_to(ROOT).as_posix()
            found += [f"{relative}: {what}" for what in findings(path.read_text())]
    return found


def test_only_public_apis_of_allauth_django_and_celery():
    found = project_findings()
    unexplained = [what for what in found if what not in EXCEPTIONS]
    assert not unexplained, "\n".join(unexplained)
    stale = [what for what in EXCEPTIONS if what not in found]
    assert not stale, f"exceptions that no longer happen, to remove: {stale}"


def test_the_check_finds_what_it_forbids():
    """Each kind of reach into a library's insides that the check exists for, as it was once
    written here, is found; the public ways beside them are not."""
    source = """
import time
from allauth.core.internal import ratelimit
from celery._state import _set_task_join_will_block
from celery.result import allow_join_result
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from nyet_site.celery import app
from accounts.models import User

def test(monkeypatch):
    monkeypatch.setattr("allauth.core.internal.ratelimit.time", None)
    monkeypatch.setattr("django.core.cache.backends.locmem.time", None)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", None)
    app._pool = None
    app.amqp._producer_pool = None
    monkeypatch.setattr(time, "time", None)
    monkeypatch.setattr(User, "check_password", None)
    monkeypatch.setattr("games.queue.publish", None)
    app.conf.task_always_eager = True
    live._redis = None
"""
    assert findings(source) == [
        "imports allauth.core.internal",
        "imports celery._state",
        "imports celery._state._set_task_join_will_block",
        "sets app._pool",
        "sets app.amqp._producer_pool",
        "patches allauth.core.internal.ratelimit.time",
        "patches django.core.cache.backends.locmem.time",
        "sets PasswordResetTokenGenerator._now",
    ]
