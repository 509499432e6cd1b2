"""One read path, read from the source (ast): the API, the streams and the game views parse,
call the selectors (``games.selectors``, ``games.lookups``) and the actions, and shape the
answer; none of them queries the ORM itself (``Model.objects``), so that a game, a seat or an
invitation is read one way everywhere, at the cost its selector promises."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The modules that present: everything in api/ but the token store and the models, every module
# of the game pages' views, and the game's stream.
PRESENTERS = sorted(
    {path for path in (ROOT / "api").glob("*.py") if path.name not in {"models.py", "tokens.py"}}
    | set((ROOT / "games" / "views").glob("*.py"))
    | {ROOT / "games" / "stream.py"}
)

# Deliberate exceptions, (module, function) -> why. None yet.
ALLOWED: dict[tuple[str, str], str] = {}


def orm_reads(path: Path) -> list[tuple[str, int]]:
    """(enclosing function, line) of each ``.objects`` in the module."""
    found = []

    def walk(node, function: str):
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Attribute) and child.attr == "objects":
                found.append((function, child.lineno))
            walk(child, inner)

    walk(ast.parse(path.read_text()), "<module>")
    return found


def test_the_presenters_are_the_ones_meant():
    names = {str(p.relative_to(ROOT)) for p in PRESENTERS}
    assert {"api/v1.py", "api/challenges.py", "api/stream.py", "games/stream.py"} <= names
    views = ("answers", "lobby", "seats", "play", "replay", "chat", "players")
    assert {f"games/views/{name}.py" for name in views} <= names


def test_no_presenter_queries_the_orm_itself():
    direct = [
        f"{path.relative_to(ROOT)}:{line} in {function}()"
        for path in PRESENTERS
        for function, line in orm_reads(path)
        if (str(path.relative_to(ROOT)), function) not in ALLOWED
    ]
    assert direct == [], "read through games.selectors / games.lookups instead"


def test_the_check_sees_a_query(tmp_path):
    """The rule would catch one: a model's manager, in a function or at module level."""
    module = tmp_path / "m.py"
    module.write_text("X = Game.objects.all()\n\ndef f():\n    return Seat.objects.first()\n")
    assert orm_reads(module) == [("<module>", 1), ("f", 4)]


# --- the outbox: written by the actions only -----------------------------------------------------

OUTBOX = {"PendingEmail", "SentEmail"}
# Deliberate exceptions, module -> why.
OUTBOX_READERS = {
    "nyet_site/observability.py": "the health check counts the emails of unknown fate: a read",
}


def outbox_uses(path: Path) -> list[int]:
    """The lines where the module reaches an outbox model's manager (``PendingEmail.objects``)."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute)
        and node.attr == "objects"
        and isinstance(node.value, ast.Name)
        and node.value.id in OUTBOX
    ]


def test_only_the_actions_touch_the_outbox():
    """``games.notifications`` says what to send; ``games.actions.notify`` writes, claims and
    records it, so that exactly-once rests on one module's writes."""
    outside = [
        f"{name}:{line}"
        for path in sorted(ROOT.glob("[a-z]*/**/*.py"))
        if "migrations" not in path.parts
        and path.parts[len(ROOT.parts)] in {"accounts", "api", "common", "games", "nyet_site"}
        and not (name := str(path.relative_to(ROOT))).startswith("games/actions/")
        and name not in OUTBOX_READERS
        for line in outbox_uses(path)
    ]
    assert outside == []
    assert outbox_uses(ROOT / "games" / "actions" / "notify.py")  # the writer is where it is said
