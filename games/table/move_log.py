"""The move log: each move told in words, its cards drawn."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games.engine import MoveJson

from .teams import team_sentence
from .words import box_label, card_html, line_title


def describe(move: MoveJson, seat: int, names: Sequence[str], hidden: bool) -> SafeString:
    """A move in words, its cards drawn. ``hidden``: another seat's discard or pass while the
    game is in play, told by its count only."""
    # Each page tells its round's moves again: each sentence is built once per language (the
    # words depend only on the move, the seat, the names at the table and ``hidden``).
    return _describe(_move_key(move), seat, tuple(names), hidden, get_language())


def _move_key(move: MoveJson) -> tuple[Any, ...]:
    if "token" in move:
        return ("token", *move["token"])
    if "teams" in move:
        return ("teams", tuple(move["teams"]["team"]), move["teams"]["bonus"])
    if "discard" in move:
        return ("discard", *move["discard"])
    if "pass" in move:
        return ("pass", move["pass"])
    return ("play", move["play"])


@lru_cache(maxsize=4096)
def _describe(
    key: tuple[Any, ...], seat: int, names: tuple[str, ...], hidden: bool, language: str
) -> SafeString:
    kind = key[0]
    who = escape(names[seat])
    if kind == "token":
        line, box = key[1:]
        text = _("%(who)s says NYET! to %(line)s: %(box)s") % {
            "who": who,
            "line": escape(line_title(line)),
            "box": escape(box_label(line, box, names)),
        }
    elif kind == "teams":
        team, bonus = key[1:]
        text = _("%(who)s forms the teams: %(teams)s") % {
            "who": who,
            "teams": escape(team_sentence(team, bonus, names, len(names))),
        }
    elif kind == "discard":
        cards = key[1:]
        count = len(cards)
        if hidden:
            text = ngettext(
                "%(who)s discards %(count)s card", "%(who)s discards %(count)s cards", count
            ) % {"who": who, "count": count}
        else:
            text = _("%(who)s discards %(cards)s") % {
                "who": who,
                "cards": " ".join(card_html(c, "card-mini") for c in cards),
            }
    elif kind == "pass":
        if hidden:
            text = _("%(who)s passes a card") % {"who": who}
        else:
            text = _("%(who)s passes %(card)s") % {
                "who": who,
                "card": card_html(key[1], "card-mini"),
            }
    else:
        text = _("%(who)s plays %(card)s") % {
            "who": who,
            "card": card_html(key[1], "card-mini"),
        }
    # The sentences are ours (translations included); names were escaped above.
    return mark_safe(text)  # noqa: S308
