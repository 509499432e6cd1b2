"""What the game table shows, worked out from one seat's view: pure functions, no database.

Everything here reads ``engine.view(state, seat)`` (or, for the replay of a finished game, a
state whose secrets are no longer secret) plus the names at the table. The rule facts a page
needs beyond the view, such as which card is winning a trick or why a card may not be played,
are computed here from the view with the engine's own pure functions, so each rule is still
stated once, in the engine.

One module per thing the table draws: ``words`` (colours, cards, lines and boxes, places, the
clock), ``seats`` (where each seat sits and its panel), ``board`` (the NYET! board and the
terms it leaves), ``hand`` (the viewer's cards), ``trick`` (the trick in play and the finished
ones), ``teams`` (the first player's choice), ``scorepad`` (a finished round's arithmetic) and
``move_log`` (each move in words). The pages, emails and tests read them through this package
(``from games import table``; ``table.panels(...)``), which re-exports their public names.
"""

from .board import board_lines, terms_items
from .hand import hand_cards, not_playable_reason
from .move_log import describe
from .scorepad import round_summary
from .seats import SLOTS, Panel, initial, panels, place
from .teams import team_form, team_key, team_sentence
from .trick import finished_trick, trick_plays
from .words import (
    COLOR_NAMES,
    COLOR_SYMBOLS,
    DISCARD_LABELS,
    DISCARD_SHORT,
    LINE_TITLES,
    box_label,
    card_html,
    card_label,
    clock_text,
    color_label,
    discard_label,
    discard_short,
    line_title,
    ordinal,
)

__all__ = [
    "COLOR_NAMES",
    "COLOR_SYMBOLS",
    "DISCARD_LABELS",
    "DISCARD_SHORT",
    "LINE_TITLES",
    "SLOTS",
    "Panel",
    "board_lines",
    "box_label",
    "card_html",
    "card_label",
    "clock_text",
    "color_label",
    "describe",
    "discard_label",
    "discard_short",
    "finished_trick",
    "hand_cards",
    "initial",
    "line_title",
    "not_playable_reason",
    "ordinal",
    "panels",
    "place",
    "round_summary",
    "team_form",
    "team_key",
    "team_sentence",
    "terms_items",
    "trick_plays",
]
