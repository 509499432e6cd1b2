"""The decision benchmarks (benchmarks/card_search.py, board_search.py, team_search.py) run
and report the search's gain and the oracle's: the oracle, knowing the deal, never does worse
than Medium."""

import importlib.util
import re
from pathlib import Path

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_card_benchmark_reports_hards_gain_and_the_oracles(capsys):
    assert load("card_search").main(["--players", "3", "--games", "1", "--deals", "3"]) == 0
    out = capsys.readouterr().out
    decisions = int(re.search(r"(\d+) card decisions", out).group(1))
    assert decisions > 5
    oracle = float(re.search(r"oracle \(.*\): ([+-]\d+\.\d+)", out).group(1))
    assert "Hard, 3 deals: gain" in out and oracle >= 0


def test_the_team_benchmark_reports_the_searchs_gain_and_the_oracles(capsys):
    args = ["--players", "3", "--games", "3", "--deals", "4", "--beliefs", "0,2"]
    assert load("team_search").main(args) == 0
    out = capsys.readouterr().out
    assert "3 team decisions" in out
    assert "belief 0, 4 deals: gain" in out and "belief 2, 4 deals: gain" in out
    oracle = float(re.search(r"oracle \(.*\): ([+-]\d+\.\d+)", out).group(1))
    assert oracle >= 0


def test_the_board_benchmark_reports_the_searchs_gain_and_the_oracles(capsys):
    args = ["--players", "4", "--games", "1", "--deals", "3", "--beliefs", "0,2"]
    assert load("board_search").main(args) == 0
    out = capsys.readouterr().out
    decisions = int(re.search(r"(\d+) board decisions", out).group(1))
    assert decisions > 4
    assert "belief 0, 3 deals: gain" in out and "belief 2, 3 deals: gain" in out
    oracle = float(re.search(r"oracle \(.*\): ([+-]\d+\.\d+)", out).group(1))
    assert oracle >= 0


def test_the_board_benchmark_judges_tokens_with_the_teams_searched_too(capsys):
    args = ["--players", "3", "--games", "1", "--deals", "3", "--beliefs", "2"]
    assert load("board_search").main([*args, "--teams", "hard", "--team-deals", "3"]) == 0
    out = capsys.readouterr().out
    assert "17 board decisions" in out and "belief 2, 3 deals: gain" in out


def test_the_team_benchmark_takes_boards_placed_by_expert_and_more_budgets(capsys):
    args = ["--players", "3", "--games", "2", "--deals", "3", "--beliefs", "2"]
    more = ["--more-deals", "4", "--placers", "expert,medium,medium"]
    assert load("team_search").main([*args, *more]) == 0
    out = capsys.readouterr().out
    assert "belief 2, 3 deals: gain" in out and "belief 2, 4 deals: gain" in out
