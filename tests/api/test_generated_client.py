"""An outside client generated from the live openapi.json alone (datamodel-code-generator, to
pydantic models): a typed program using its models passes mypy --strict, a wrongly typed one
does not, and the program plays a whole game of alice's through the API with those models
(every answer read by them, every move built by them)."""

import importlib.util
import json
import subprocess
import sys
import textwrap

import pytest
from django.test import Client

from games.actions import create_game
from games.models import Game
from tests.api.helpers import API, Caller

pytestmark = pytest.mark.django_db

# The program: it knows the API from the generated models only.
PROGRAM = '''
from models import (
    GameOut,
    GameStreamEvent,
    KeepAlive,
    MoveIn,
    Phase,
    PlayMove,
    RecordOut,
    SeatedPlayMove,
    View,
)


def seat_names(game: GameOut) -> list[str]:
    return [seat.name for seat in game.seats]


def answer(text: str) -> str | None:
    """The move to send (MoveIn's JSON) for a game read as JSON, or None: nothing to do."""
    game = GameOut.model_validate_json(text)
    view: View | None = game.view
    if view is None or not game.legal:
        return None
    hand: list[str] = [card.root for card in view.hand]
    playable = {move.play for move in view.legal if isinstance(move, SeatedPlayMove)}
    if view.phase is Phase.tricks and playable:
        card = min(playable)
        assert card in hand
        move = MoveIn(version=game.version, move=PlayMove(play=card))
    else:
        move = MoveIn(version=game.version, move=game.legal[-1])
    return move.model_dump_json(by_alias=True, exclude_none=True)


def winners(text: str) -> list[int]:
    record = RecordOut.model_validate_json(text)
    return [place.seat for place in record.result.places if place.rank == 1]


def event_version(line: str) -> int | None:
    event = GameStreamEvent.model_validate_json(line).root
    return None if isinstance(event, KeepAlive) else event.version
'''

# The same models misused: mypy must say so, line by line.
WRONG = """
from models import GameOut, MoveIn, PlayMove, TokenMove


def answer(game: GameOut) -> MoveIn:
    totals: str = game.view.totals if game.view else ""
    token = TokenMove(token=("first", 2))
    return MoveIn(version="3", move=PlayMove(play=7))
"""


def generate(tmp_path) -> None:
    schema = Client().get(API + "/openapi.json")
    assert schema.status_code == 200
    (tmp_path / "openapi.json").write_bytes(schema.content)
    subprocess.run(
        [
            *(sys.executable, "-m", "datamodel_code_generator"),
            *("--input", str(tmp_path / "openapi.json"), "--input-file-type", "openapi"),
            *("--output", str(tmp_path / "models.py")),
            *("--output-model-type", "pydantic_v2.BaseModel", "--target-python-version", "3.11"),
            *("--use-annotated", "--field-constraints", "--set-default-enum-member"),
            *("--use-standard-collections", "--use-union-operator", "--disable-timestamp"),
            *("--formatters", "builtin"),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )


def mypy(tmp_path, program: str) -> subprocess.CompletedProcess:
    (tmp_path / "program.py").write_text(textwrap.dedent(program))
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(tmp_path / ".mypy_cache")]
        + ["program.py", "models.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )


def load(tmp_path, name: str):
    sys.path.insert(0, str(tmp_path))
    try:
        spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("models", None)


def test_a_client_generated_from_openapi_json_type_checks_and_plays_a_whole_game(
    tmp_path, act, alice, django_capture_on_commit_callbacks
):
    generate(tmp_path)
    checked = mypy(tmp_path, PROGRAM)
    assert checked.returncode == 0, checked.stdout
    wrong = mypy(tmp_path, WRONG)
    assert wrong.returncode == 1
    errors = [line for line in wrong.stdout.splitlines() if "program.py" in line]
    assert len(errors) == 4, wrong.stdout  # the totals, the token's box, the version, the card
    assert "models.py" not in wrong.stdout

    (tmp_path / "program.py").write_text(textwrap.dedent(PROGRAM))
    program = load(tmp_path, "program")
    caller = Caller(alice)
    game = act(create_game, alice, players=3, bots=["easy", "easy"], target=1)
    url = f"/games/{game.pk}"
    moves = 0
    while (answer := caller.get(url)).json()["status"] == Game.Status.ACTIVE:
        body = program.answer(answer.content.decode())
        assert body is not None, "alice must move: the bots answer at once"
        with django_capture_on_commit_callbacks(execute=True):  # the bots answer
            moved = caller.client.post(
                API + url + "/move", body, content_type="application/json", headers=caller.headers()
            )
        assert moved.status_code == 200, (body, moved.content)
        moves += 1
    assert moves > 10 and program.answer(answer.content.decode()) is None
    assert program.seat_names(program.GameOut.model_validate_json(answer.content))[0]
    assert program.winners(caller.get(url + "/record").content.decode())
    event = json.dumps({"type": "game", **answer.json()})
    assert program.event_version(event) == answer.json()["version"]
    assert program.event_version('{"type": "keep-alive"}') is None
