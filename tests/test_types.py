"""The packages held to strict typing type-check clean (mypy, with ``mypy.ini``), and the
engine's ``View`` agrees key for key with the API's schema of it (api/schemas/view.py).

mypy runs in this process with its cache in the temporary folder: a warm run checks only what
changed (about 0.5 s; cold, about 3 s).
"""

from __future__ import annotations

import tempfile
import typing
from pathlib import Path

import pytest
from mypy import api as mypy_api
from pydantic import BaseModel

from api.schemas import view as api_view
from games import engine
from games.engine import moves
from games.engine.view import BoardView, TokenJson

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = (
    "games/engine",
    "games/bots",
    "games/table",
    "games/selectors",
    "games/tutorial.py",
    "games/push.py",
    "games/checks.py",
    "api",
)
# Django's declarations, which mypy cannot read without django-stubs: left out, as games.models is.
EXCLUDED = r"(^|/)api/(models\.py|migrations/)"
CACHE = Path(tempfile.gettempdir()) / "nyet-mypy-cache"


def _mypy(*paths: str, cache: Path = CACHE) -> tuple[str, int]:
    config = ["--config-file", str(ROOT / "mypy.ini"), "--cache-dir", str(cache)]
    out, err, status = mypy_api.run([*config, "--exclude", EXCLUDED, *paths])
    return out + err, status


def test_the_strict_packages_type_check():
    report, status = _mypy(*(str(ROOT / p) for p in PACKAGES))
    assert status == 0, report


def test_the_config_is_strict(tmp_path):
    # An unannotated function and a view read by a key it does not have: both refused.
    bad = tmp_path / "bad.py"
    bad.write_text(
        "from games.engine import View\n\n"
        "def untyped(x):\n    return x\n\n"
        "def seed(seen: View) -> int:\n    return seen['seed']\n"
    )
    # A cache of its own: under xdist the other mypy run may be writing the shared one.
    report, status = _mypy(str(bad), cache=tmp_path / "cache")
    assert status == 1
    assert "[no-untyped-def]" in report and "[typeddict-item]" in report, report


def _classes(tp: object, wanted: typing.Callable[[type], bool]) -> list[type]:
    """The classes ``wanted`` picks out of a type expression (through lists, unions, Annotated)."""
    if isinstance(tp, type) and typing.get_origin(tp) is None:
        return [tp] if wanted(tp) else []
    return [c for arg in typing.get_args(tp) for c in _classes(arg, wanted)]


def _keys(cls: type) -> frozenset[str]:
    if typing.is_typeddict(cls):
        return frozenset(typing.get_type_hints(cls))
    return frozenset(cls.model_fields)


def _is_model(cls: type) -> bool:
    return issubclass(cls, BaseModel)


def _agree(typed: type, model: type, path: str) -> None:
    """``typed`` (a TypedDict) and ``model`` (pydantic) have the same keys, and so have the
    dicts and models nested in each key's type, paired by their keys."""
    assert _keys(typed) == _keys(model), path
    hints = typing.get_type_hints(typed)
    for key, hint in hints.items():
        dicts = _classes(hint, typing.is_typeddict)
        models = _classes(model.model_fields[key].annotation, _is_model)
        if typing.get_origin(hint) is dict:  # the board's open boxes: keyed by line
            (lines,) = models
            assert set(lines.model_fields) == set(engine.LINES), f"{path}.{key}"
            continue
        assert sorted(sorted(_keys(c)) for c in dicts) == sorted(
            sorted(_keys(c)) for c in models
        ), f"{path}.{key}"
        for nested in dicts:
            (twin,) = [m for m in models if _keys(m) == _keys(nested)]
            _agree(nested, twin, f"{path}.{key}")


def test_the_engine_view_and_the_api_schema_agree_key_for_key():
    _agree(engine.View, api_view.View, "view")


class _Board(typing.TypedDict):
    tokens: list[TokenJson]  # "open" missing


class _Partial(typing.TypedDict):
    board: _Board


class _Schema(BaseModel):
    board: api_view.BoardOut


def test_the_agreement_check_sees_a_missing_nested_key():
    with pytest.raises(AssertionError) as raised:
        _agree(_Partial, _Schema, "view")
    assert str(raised.value).splitlines()[0] == "view.board"


def test_a_view_has_exactly_the_keys_of_its_type():
    state = engine.new_game(4, seed=3)
    seen = engine.view(state, state.turn)
    assert set(seen) == _keys(engine.View)
    assert set(seen["board"]) == _keys(BoardView)
    assert {frozenset(m) for m in seen["legal"]} == {_keys(moves.TokenJson)}
