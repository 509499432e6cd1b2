"""The viewer's hand: each card, whether it may be played now and, if not, why (worked out
from the view with the engine's suits).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _

from games.engine import TermsJson, View
from games.engine.tricks import SUITS, TRUMP

from .words import card_label, color_label


def not_playable_reason(card: str, trick: Sequence[str], terms: TermsJson) -> str:
    """Why ``card`` may not be played to ``trick`` (called for a card the rules refuse)."""
    suit_of = SUITS[terms["trump"], terms["super"]]
    led = suit_of[trick[0]]
    if led == TRUMP:
        return _("A trump was led: you must play a trump (or a supertrump).")
    if card[0] == led and suit_of[card] == TRUMP:
        return _(
            "This card is a supertrump: it counts as a trump, not as %(color)s, and you hold"
            " %(color)s."
        ) % {"color": color_label(led)}
    return _("You must follow %(color)s.") % {"color": color_label(led)}


def hand_cards(seen: View) -> list[dict[str, object]]:
    """The viewer's hand in the engine's order (by color, then value); on their turn in the
    tricks phase, each card says whether it may be played and, if not, why. ``forced`` marks
    the card when it is the only one the rules allow (its first copy, as a hand may hold a
    card twice): the page plays it for a player who asked for that (User.play_forced_cards)."""
    legal = {m["play"] for m in seen["legal"] if "play" in m}
    choosing = seen["phase"] == "tricks" and bool(legal)
    forced = next(iter(legal)) if choosing and len(legal) == 1 else None
    cards = []
    for index, card in enumerate(seen["hand"]):
        playable = card in legal
        reason = ""
        if choosing and not playable:
            terms = seen["terms"]
            assert terms is not None  # the tricks phase
            reason = not_playable_reason(card, seen["trick"]["cards"], terms)
        item: dict[str, object] = {
            "card": card,
            "index": index,
            "playable": playable,
            "reason": reason,
        }
        item["forced"] = card == forced
        if item["forced"]:
            item["label"] = card_label(card)  # "Playing the blue 7 for you"
            forced = None
        cards.append(item)
    return cards
