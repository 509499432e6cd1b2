from games.engine import OVER, SETUPS, replay
from games.engine.simulate import main, random_game


def test_random_game_is_repeatable_and_replays():
    state, log = random_game(4, seed=5)
    assert state.phase == OVER and len(state.results) == SETUPS[4].rounds
    assert random_game(4, seed=5) == (state, log)
    assert replay(4, 5, None, log) == state


def test_simulate_prints_speed_and_summary(capsys):
    assert main(["--players", "3", "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"3 games, {3 * SETUPS[3].rounds} rounds, ")
    assert " rounds/s, " in out and " moves/s" in out
    assert "trump: " in out
