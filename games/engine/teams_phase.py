"""Team choice (RULES.md, "A round", 3): the first player forms the teams and, where the bonus
card is used, names who holds it. With 2 players there is nothing to choose.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from .errors import IllegalMove, gettext_noop
from .moves import ChooseTeams
from .refusals import refuse_phase, refuse_turn
from .state import DISCARD, TEAMS, GameState
from .tricks_phase import start_tricks


def _team_sizes(players: int) -> tuple[int, ...]:
    """Allowed sizes of the first player's team."""
    return {3: (1, 2), 4: (2,), 5: (2, 3)}[players]


@cache
def team_choices(players: int, first: int) -> tuple[ChooseTeams, ...]:
    others = [s for s in range(players) if s != first]
    choices = []
    for size in _team_sizes(players):
        for mates in combinations(others, size - 1):
            team = (first, *mates)
            other = tuple(s for s in others if s not in mates)
            if players == 3:
                choices.append(ChooseTeams(first, team, (team if size == 1 else other)[0]))
            elif players == 4:
                choices.append(ChooseTeams(first, team, None))
            else:
                for holder in team if size == 2 else other:
                    choices.append(ChooseTeams(first, team, holder))
    return tuple(choices)


def choose_teams(state: GameState, move: ChooseTeams) -> GameState:
    refuse_phase(state, TEAMS)
    refuse_turn(state, move.seat)
    teams, bonus = check_teams(state.players, move.seat, move.team, move.bonus)
    return start_discard(state.evolve(), teams, bonus)


def check_teams(
    players: int, first: int, team: Sequence[int], bonus: int | None
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], int | None]:
    """The teams and bonus holder the first player's choice makes; ``IllegalMove`` if refused."""
    if players == 2:
        raise IllegalMove("no_team_choice", gettext_noop("With 2 players each plays alone."))
    if any(type(s) is not int or not 0 <= s < players for s in (*team, bonus or 0)):
        raise IllegalMove("no_such_seat", gettext_noop("Choose players seated at this table."))
    if len(set(team)) != len(team):
        raise IllegalMove("team_twice", gettext_noop("Name each player of your team once."))
    if first not in team:
        raise IllegalMove("team_without_first", gettext_noop("Your team must include you."))
    if len(team) not in _team_sizes(players):
        messages = {
            3: gettext_noop("With 3 players you play alone or take one partner."),
            4: gettext_noop("With 4 players you take exactly one partner."),
            5: gettext_noop("With 5 players you take one or two partners."),
        }
        raise IllegalMove("team_size", messages[players])
    mine = tuple(sorted(team))
    others = tuple(s for s in range(players) if s not in team)
    if players == 3:
        solo = (mine if len(mine) == 1 else others)[0]
        if bonus not in (None, solo):
            raise IllegalMove(
                "bonus_holder", gettext_noop("With 3 players the solo player holds the bonus card.")
            )
        bonus = solo
    elif players == 4:
        if bonus is not None:
            raise IllegalMove(
                "bonus_holder", gettext_noop("With 4 players there is no bonus card.")
            )
    elif bonus not in (mine if len(mine) == 2 else others):
        raise IllegalMove(
            "bonus_holder",
            gettext_noop("Give the bonus card to a player of the two-player team."),
        )
    return (mine, others), bonus


def start_discard(
    new: GameState, teams: tuple[tuple[int, ...], tuple[int, ...]], bonus: int | None
) -> GameState:
    new.teams = teams
    new.bonus = bonus
    assert new.terms is not None
    if new.terms.discard == "none":
        return start_tricks(new)
    new.phase = DISCARD
    return new
