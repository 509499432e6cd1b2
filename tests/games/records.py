"""A game's records checked against the engine. The app's own check (``check_records``: the
stored state, move count, scores and rows are what a replay of the log through the write path's
``move_rows`` makes) comes first; then, apart from the code that writes them, the move log
replayed through ``engine.play`` says, move by move, which token was placed, which trick was
taken (leader, cards, winner, loot) and how each round ended: every row must say the same, in
the same order."""

from games import engine
from games.actions.records import check_records
from games.engine import move_from_json
from games.models import BoardToken, MoveRecord, Play, Round, RoundSeat, Trick


def expected_records(game):
    """(state, rounds): the replayed state, and per round its dealer, tokens, tricks and result
    (None while it is in play), all as the engine decided them."""
    log = [move_from_json(r.move) for r in MoveRecord.objects.filter(game=game)]
    state = engine.new_game(game.players, game.seed, game.target)
    rounds = [{"dealer": state.dealer, "tokens": [], "tricks": [], "result": None, "terms": None}]
    for move in log:
        outcome = engine.play(state, move)
        current = rounds[-1]
        if outcome.token is not None:
            current["tokens"].append(outcome.token)
        if outcome.trick is not None:
            current["tricks"].append(outcome.trick)
        if outcome.state.terms is not None and outcome.result is None:
            current["terms"] = outcome.state.terms
        if outcome.result is not None:
            current["result"] = outcome.result
            if outcome.state.phase != engine.OVER:
                rounds.append(
                    {
                        "dealer": outcome.state.dealer,
                        "tokens": [],
                        "tricks": [],
                        "result": None,
                        "terms": None,
                    }
                )
        state = outcome.state
    return state, rounds


def assert_records_agree(game):
    """Seed + move log rebuild the stored state, and every record says what the engine decided."""
    assert check_records(game.pk) == []
    game.refresh_from_db()
    state, rounds = expected_records(game)
    rows = list(Round.objects.filter(game=game))
    assert [r.number for r in rows] == list(range(1, len(rounds) + 1))
    for row, expected in zip(rows, rounds, strict=True):
        assert row.dealer == expected["dealer"]
        tokens = list(BoardToken.objects.filter(round=row))
        assert [(t.order, t.seat, t.line, t.box) for t in tokens] == [
            (order, t.seat, t.line, t.box) for order, t in enumerate(expected["tokens"])
        ]
        tricks = list(Trick.objects.filter(round=row))
        assert len(tricks) == len(expected["tricks"])
        for number, (trick, taken) in enumerate(zip(tricks, expected["tricks"]), start=1):  # noqa: B905
            assert (trick.number, trick.leader, trick.winner) == (
                number,
                taken.leader,
                taken.winner,
            )
            assert trick.loot == list(taken.loot)
            plays = list(Play.objects.filter(trick=trick))
            assert [(p.order, p.seat, p.card) for p in plays] == [
                (order, seat, card)
                for order, (seat, card) in enumerate(
                    zip(taken.seats(game.players), taken.cards, strict=True)
                )
            ]
        result = expected["result"]
        parts = [
            (p.position, p.seat.position, p.team, p.first, p.bonus, p.bonus_team)
            + (p.tricks, p.loot, p.score)
            for p in RoundSeat.objects.filter(round=row).select_related("seat").order_by("position")
        ]
        if result is None:
            assert parts == []
            terms = expected["terms"]
        else:
            terms, teams, bonus = result.terms, result.teams, result.bonus
            team = engine.team_of(teams)
            assert parts == [
                (s, s, team[s], s == terms.first, s == bonus)
                + (bonus is not None and team[s] == team[bonus],)
                + (result.tricks[s], result.loot[s], result.scores[s])
                for s in range(game.players)
            ]
            assert [t.winner for t in tricks].count(0) == result.tricks[0]
        if terms is None:
            assert row.trump == "" and row.points is None
        else:
            assert (row.discard, row.trump, row.supertrump, row.points) == (
                terms.discard,
                terms.trump,
                terms.super,
                terms.points,
            )
    totals = engine.game_standings(state).totals
    assert [s.score for s in game.seats.all()] == totals
