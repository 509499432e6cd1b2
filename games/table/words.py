"""The table's words and faces: the colours and their symbols, a card drawn, the lines and
boxes of the board, a place in a ranking and the time on a clock. Each word is translated
where it is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext_noop, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import COLOR_LINES
from games.engine.cards import VALUE
from games.models import CHARACTERS

COLOR_SYMBOLS = {"B": "●", "R": "▲", "Y": "★", "G": "■"}


# The words for colours, lines and discard rules, translated one at a time where used: building
# a dict of them all per call translated every word to show one (hundreds of calls a page).
COLOR_NAMES = {
    "B": gettext_noop("blue"),
    "R": gettext_noop("red"),
    "Y": gettext_noop("yellow"),
    "G": gettext_noop("green"),
}
LINE_TITLES = {
    "first": gettext_noop("First player"),
    "discard": gettext_noop("Discard"),
    "trump": gettext_noop("Trump"),
    "super": gettext_noop("Supertrump"),
    "points": gettext_noop("Points per trick"),
}
DISCARD_LABELS = {
    "none": gettext_noop("NYET! (no discard)"),
    "1": gettext_noop("Discard 1 card"),
    "2": gettext_noop("Discard 2 cards"),
    "except_1": gettext_noop("Discard 1 card, not a 1"),
    "pass_left": gettext_noop("Pass 1 card left"),
}
# The words on the board's small boxes; the full rule is in their title.
DISCARD_SHORT = {
    "none": gettext_noop("NYET!"),
    "1": gettext_noop("1 card"),
    "2": gettext_noop("2 cards"),
    "except_1": gettext_noop("1, not a 1"),
    "pass_left": gettext_noop("pass left"),
}


def color_label(color: str) -> str:
    return _(COLOR_NAMES[color])


def card_label(card: str) -> str:
    """“blue 7”: what a screen reader says for a card."""
    return f"{color_label(card[0])} {VALUE[card]}"


def card_html(code: str, extra_class: str = "") -> SafeString:
    """A card face: color by class and by symbol (for color-blind players and grey screens).
    The one place a card is drawn: ``data-card`` marks every card a page shows."""
    return _card_html(code, extra_class, get_language())


@lru_cache(maxsize=1024)
def _card_html(code: str, extra_class: str, language: str) -> SafeString:
    # Pages draw many cards (the replay every hand): each face is built once per language.
    return format_html(
        '<span class="card card-{}{}" data-card="{}" title="{}">'
        '<span class="card-value" aria-hidden="true">{}</span>'
        '<span class="card-symbol" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        code[0],
        f" {extra_class}" if extra_class else "",
        code,
        card_label(code),
        VALUE[code],
        COLOR_SYMBOLS[code[0]],
        card_label(code),
    )


def line_title(line: str) -> str:
    return _(LINE_TITLES[line])


def discard_label(box: str) -> str:
    return _(DISCARD_LABELS[box])


def discard_short(box: str) -> str:
    return _(DISCARD_SHORT[box])


def box_label(line: str, box: str, names: Sequence[str] | None = None) -> str:
    if line == "first":
        return names[int(box)] if names and int(box) < len(names) else str(CHARACTERS[int(box)])
    if line == "discard":
        return discard_label(box)
    if line in COLOR_LINES:
        return _("none") if box == "none" else color_label(box)
    return box


def ordinal(rank: int) -> str:
    """“1st”: a place in the final ranking."""
    return {
        1: pgettext("rank", "1st"),
        2: pgettext("rank", "2nd"),
        3: pgettext("rank", "3rd"),
        4: pgettext("rank", "4th"),
        5: pgettext("rank", "5th"),
    }[rank]


def clock_text(seconds: float) -> str:
    """Time left on a turn: “4:07” under an hour, “2:04:07” under a day, else in words."""
    seconds = max(0, int(seconds))
    if seconds < 24 * 3600:
        hours, rest = divmod(seconds, 3600)
        minutes, secs = divmod(rest, 60)
        return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"
    days, rest = divmod(seconds, 24 * 3600)
    hours = rest // 3600
    text = ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if hours:
        text += " " + ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    return text
