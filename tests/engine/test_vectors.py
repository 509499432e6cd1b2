"""Every rules vector in tests/rules_vectors (a copy of shared/rules-vectors) passes, and the runner
behaves as FORMAT.md says."""

import json
from pathlib import Path

import pytest

from games.engine import vectors

FOLDER = Path(__file__).parent.parent / "rules_vectors"
ALL = [v for file in vectors.vector_files([str(FOLDER)]) for v in json.loads(file.read_text())]


def test_the_copy_holds_every_kind():
    assert {v["kind"] for v in ALL} == set(vectors.KINDS)


@pytest.mark.parametrize("vector", ALL, ids=[v["id"] for v in ALL])
def test_vector(vector):
    ok, got = vectors.check(vector)
    assert ok, f"expected {vector['expect']}, got {got}"


def _write(tmp_path, items, name="v.json"):
    path = tmp_path / name
    path.write_text(json.dumps(items))
    return path


def test_runner_reports_passes_and_failures(tmp_path, capsys):
    good = next(v for v in ALL if v["kind"] == "score")
    bad = {**good, "id": "wrong-score", "expect": {"scores": [0] * good["players"]}}
    unknown = {"id": "mystery", "kind": "shuffle", "expect": {}}
    code = vectors.main([str(_write(tmp_path, [good, bad, unknown]))])
    out = capsys.readouterr().out.splitlines()
    assert code == 1
    assert out[-1] == "1 passed, 2 failed"
    assert out[0].startswith("FAIL wrong-score: expected ")
    assert out[1].startswith("FAIL mystery: ")


def test_runner_takes_folders_and_files(tmp_path, capsys):
    setups = [v for v in ALL if v["kind"] == "setup"]
    folder = tmp_path / "more"
    folder.mkdir()
    _write(folder, setups[:2], "a.json")
    single = _write(tmp_path, setups[2:], "b.json")
    assert vectors.main([str(folder), str(single)]) == 0
    assert capsys.readouterr().out.strip() == f"{len(setups)} passed, 0 failed"


def test_a_vector_that_crashes_the_engine_is_a_failure(tmp_path, capsys):
    broken = {"id": "broken", "kind": "round", "players": 4, "dealer": 0, "hands": [], "moves": []}
    assert vectors.main([str(_write(tmp_path, [broken]))]) == 1
    assert "FAIL broken: " in capsys.readouterr().out


def test_runner_refuses_a_mistaken_round(tmp_path, capsys):
    """A round vector whose expected scores are wrong fails: the runner replays the real round."""
    rnd = next(v for v in ALL if v["kind"] == "round" and "scores" in v["expect"])
    wrong = {**rnd, "expect": {**rnd["expect"], "scores": [s + 1 for s in rnd["expect"]["scores"]]}}
    assert vectors.main([str(_write(tmp_path, [rnd, wrong]))]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "1 passed, 1 failed"


def test_a_move_after_the_end_of_the_round_is_refused():
    rnd = next(v for v in ALL if v["kind"] == "round" and "scores" in v["expect"])
    extra = {**rnd, "moves": [*rnd["moves"], rnd["moves"][0]]}
    assert vectors.check({**extra, "expect": {"error_at": len(rnd["moves"])}}) == (
        True,
        {"error_at": len(rnd["moves"])},
    )


def test_a_file_that_holds_no_vectors_is_a_failure_and_the_others_still_run(tmp_path, capsys):
    good = next(v for v in ALL if v["kind"] == "score")
    (tmp_path / "a-broken.json").write_text("{not json")
    _write(tmp_path, {"kind": "score"}, "b-object.json")
    _write(tmp_path, [good], "c-good.json")
    assert vectors.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "1 passed, 2 failed"
    assert out[0].startswith("FAIL ") and "a-broken.json" in out[0]
    assert "b-object.json" in out[1]
