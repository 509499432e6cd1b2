"""The figures the site states for each level's strength are what the arena's recorded games
give (games.bots.strength), worked out as the arena's own report works them out."""

import json
from pathlib import Path

from games.bots import arena, strength
from games.bots.arena import main

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted((ROOT / "benchmarks" / "arena").glob("*.jsonl"))


def test_the_sites_figures_are_those_of_the_games_on_record():
    """strength.json is written from benchmarks/arena/*.jsonl; a figure changed by hand, or
    records added without writing it again, fail here."""
    assert RECORDS, "the arena's records are in benchmarks/arena"
    assert list(strength.measured()) == strength.figures(RECORDS)
    sizes = {(m["strong"], m["weak"], m["players"]) for m in strength.measured()}
    assert {("medium", "easy", n) for n in (3, 4, 5)} <= sizes
    assert ("hard", "medium", 3) in sizes


def test_the_figures_are_the_arenas_report(tmp_path, capsys):
    """Per matchup and size: the games, the margin over all rounds and in the facing rounds,
    and the win rates, as the arena's table gives them; a pair with one game on record is
    left out."""
    record = tmp_path / "games.jsonl"
    args = ["--players", "3,4", "--games", "6", "--levels", "random,easy"]
    assert main([*args, "--record", str(record)]) == 0
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| 3 |")]
    lines = record.read_text().splitlines()
    record.write_text("\n".join(lines[:-1]) + "\n")  # the last pair's second game, lost
    measured = strength.figures([record])
    assert [(m["players"], m["games"]) for m in measured] == [(3, 6), (4, 4)]
    games = [arena.Game(**json.loads(line)["game"]) for line in lines[6:10]]
    for game in games:
        game.rounds = [(tuple(map(tuple, teams)), tuple(s)) for teams, s in game.rounds]
    fours = arena.Result(4, "random", "easy", games)
    mean, half = arena.interval_of(fours.facing())
    assert measured[1]["facing"] == [round(mean, 4), round(mean - half, 4), round(mean + half, 4)]
    assert measured[1]["wins"]["easy"][0] == round(sum(fours.wins("easy")) / 2, 4)
    for m in measured:
        for mean, low, high in m["wins"].values():
            assert 0 <= low <= mean <= high <= 1, "a share's interval within 0 and 1"
    threes = measured[0]
    assert table[0].startswith(
        f"| 3 | easy vs random | 6 | {threes['margin'][0]:+.2f} [{threes['margin'][1]:+.2f},"
    )


def test_the_figures_file_is_written_from_the_records(tmp_path, monkeypatch, capsys):
    record = tmp_path / "games.jsonl"
    assert (
        main(["--players", "3", "--games", "2", "--levels", "random,easy", "--record", str(record)])
        == 0
    )
    written = tmp_path / "strength.json"
    monkeypatch.setattr(strength, "FIGURES", written)
    assert strength.main([str(record)]) == 0
    assert json.loads(written.read_text()) == strength.figures([record])
    assert "| 3 | easy vs random | 2 |" in capsys.readouterr().out, "and prints the table"
    assert strength.main([]) == 2
    capsys.readouterr()


def recorded(path, *args):
    """Plays a short match into the record at ``path`` (random against easy, 3 players)."""
    base = ["--players", "3", "--games", "2", "--levels", "random,easy", "--record", str(path)]
    assert main([*base, *args]) == 0


def test_only_the_code_last_recorded_counts_and_a_game_counts_once(tmp_path, monkeypatch, capsys):
    old, new, copy = (tmp_path / name for name in ("old.jsonl", "new.jsonl", "copy.jsonl"))
    monkeypatch.setattr(arena, "code_version", lambda: "before")
    recorded(old, "--games", "4")
    monkeypatch.setattr(arena, "code_version", lambda: "after")
    recorded(new)
    copy.write_text(new.read_text())
    capsys.readouterr()
    (measured,) = strength.figures([old, new, copy])
    assert measured["games"] == 2 and measured["code"] == "after"
    assert strength.figures([old])[0]["games"] == 4


def test_a_line_cut_short_is_passed_over_and_the_next_game_starts_a_line(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    recorded(record)
    whole = record.read_text()
    record.write_text(whole[: len(whole) // 3 * 2].rstrip("\n"))  # the run was killed mid-line
    assert len(arena.Record(record, arena.code_version()).played()) == 1
    recorded(record)
    lines = record.read_text().splitlines()
    assert len(lines) == 3 and len(arena.Record(record, arena.code_version()).played()) == 2
    capsys.readouterr()
    assert strength.figures([record])[0]["games"] == 2


def test_a_level_against_itself_has_no_figures(tmp_path, capsys):
    record = tmp_path / "games.jsonl"
    assert (
        main(["--players", "3", "--games", "2", "--levels", "easy,easy", "--record", str(record)])
        == 0
    )
    capsys.readouterr()
    assert strength.figures([record]) == []


def test_make_strength_goes_on_with_the_matches_on_record(monkeypatch, capsys):
    """`make strength` asks the arena for the very games on record (the same seeds, levels and
    options), so that run again by the code that recorded them it reads them rather than
    playing them: here each of its matches, cut to its first pair, plays nothing. (Other code
    plays them again, as it should; the records say which code played them.)"""
    import shlex
    import subprocess

    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "strength", "INSTALLED=pyproject.toml"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.replace("\\\n", " ")
    commands = [shlex.split(line) for line in dry.splitlines() if "games.bots.arena" in line]
    matches = {c[c.index("--record") + 1] for c in commands}
    assert {str(path.relative_to(ROOT)) for path in RECORDS} <= matches, "a match of its own"
    commands = [c for c in commands if (ROOT / c[c.index("--record") + 1]).exists()]

    def played_again(*args, **kwargs):
        raise AssertionError(f"a game on record was played again: {args[:3]}")

    monkeypatch.setattr(arena, "play", played_again)
    monkeypatch.chdir(ROOT)
    for command in commands:
        args = command[command.index("games.bots.arena") + 1 :]
        args[args.index("--games") + 1] = "2"
        path = ROOT / args[args.index("--record") + 1]
        code = json.loads(json.loads(path.read_text().splitlines()[-1])["key"])[0]
        monkeypatch.setattr(arena, "code_version", lambda code=code: code)
        assert main(args) == 0
    capsys.readouterr()
