"""The rules of Nyet!, in pure Python: no Django, no clock, no global random.

The public API, all importable from ``games.engine``::

    state = new_game(players=4, seed=1234, target=None)   # round 1 dealt from the seed
    to_act(state)                  # seats that may move now: (2,), or several while discarding
    legal_moves(state, seat)       # every move that seat may make now
    state = apply(state, move)     # a new state; IllegalMove (state unchanged) if refused
    played = play(state, move)     # the same, with the token, trick or round the move decided
    view(state, seat)              # a JSON dict of exactly what that seat may see (a View)
    state_to_json(state) / state_from_json(data)   # storage form, secrets included
    move_to_json(move) / move_from_json(data)      # {"seat": 0, "play": "Y7"} and friends
    replay(players, seed, target, moves)           # seed + move log rebuild the game

Moves: ``PlaceToken(seat, line, box)``, ``ChooseTeams(seat, team, bonus)``,
``Discard(seat, cards)``, ``PassCard(seat, card)``, ``PlayCard(seat, card)``.
A ``GameState`` is never changed in place. ``IllegalMove`` has a ``code`` for programs and a
``message`` (marked for translation) for players.

The rules themselves live in small modules named after the game: ``cards``, ``board``,
``tricks``, ``scoring``. ``state`` holds a game (``GameState``); ``rounds`` deals a round and
scores it; one module per phase of a round applies its moves (``board_phase``, ``teams_phase``,
``discard_phase``, ``tricks_phase``, their shared ``refusals`` aside); ``game`` ties them into
the entry points above (``to_act``, ``legal_moves``, ``apply``, ``play``, ``replay``).
What the rest of the site needs of a rule is exported here, so that each rule is stated once:
the board's ``LINES``, ``BOXES`` and ``COLOR_LINES``; line 2's rules (``CARDS_CHOSEN``,
``cards_discarded``, ``discardable``, ``hands_after``); the tricks' (``legal_cards``,
``play_order``, ``trick_winner``, also for a trick in play), ``team_of`` and ``is_loot``.
"""

from .board import (
    BOXES,
    CARDS_CHOSEN,
    COLOR_LINES,
    LINES,
    PASS_LEFT,
    Terms,
    TermsJson,
    Token,
    cards_discarded,
    discardable,
    hands_after,
)
from .cards import PLAYER_COUNTS, SETUPS
from .errors import IllegalMove
from .game import Played, apply, legal_moves, play, replay, to_act
from .moves import (
    ChooseTeams,
    Discard,
    Move,
    MoveJson,
    PassCard,
    PlaceToken,
    PlayCard,
    move_from_json,
    move_to_json,
)
from .rounds import game_standings, new_game, with_deal
from .serialize import round_result_from_json, state_from_json, state_to_json
from .state import BOARD, DISCARD, OVER, PHASES, TEAMS, TRICKS, GameState, RoundResult, Trick
from .tricks import is_loot, legal_cards, play_order, team_of, trick_winner
from .view import View, view

__all__ = [
    "round_result_from_json",
    "BOARD",
    "BOXES",
    "CARDS_CHOSEN",
    "COLOR_LINES",
    "DISCARD",
    "LINES",
    "OVER",
    "PASS_LEFT",
    "PHASES",
    "PLAYER_COUNTS",
    "SETUPS",
    "TEAMS",
    "TRICKS",
    "ChooseTeams",
    "Discard",
    "GameState",
    "IllegalMove",
    "Move",
    "MoveJson",
    "PassCard",
    "PlaceToken",
    "PlayCard",
    "Played",
    "RoundResult",
    "Terms",
    "TermsJson",
    "Token",
    "Trick",
    "View",
    "apply",
    "cards_discarded",
    "discardable",
    "game_standings",
    "hands_after",
    "is_loot",
    "legal_cards",
    "legal_moves",
    "move_from_json",
    "move_to_json",
    "new_game",
    "play",
    "play_order",
    "replay",
    "state_from_json",
    "state_to_json",
    "team_of",
    "to_act",
    "trick_winner",
    "view",
    "with_deal",
]
