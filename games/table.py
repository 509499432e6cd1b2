"""What the game table shows, worked out from one seat's view: pure functions, no database.

Everything here reads ``engine.view(state, seat)`` (or, for the replay of a finished game, a
state whose secrets are no longer secret) plus the names at the table. The rule facts a page
needs beyond the view, such as which card is winning a trick or why a card may not be played,
are computed here from the view with the engine's own pure functions, so each rule is still
stated once, in the engine.

Seats sit around the table relative to the viewer: the viewer at the bottom, the player to
their left (the next to play, RULES.md: seats go clockwise) on the left, and so on round.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop, ngettext, pgettext
from django.utils.translation import gettext as _

from games.engine import (
    BOXES,
    COLOR_LINES,
    LINES,
    MoveJson,
    TermsJson,
    Token,
    View,
    is_loot,
    play_order,
    team_of,
    trick_winner,
)
from games.engine.cards import VALUE
from games.engine.tricks import SUITS, TRUMP
from games.engine.view import FinishedTrick, RoundView
from games.models import CHARACTERS

COLOR_SYMBOLS = {"B": "●", "R": "▲", "Y": "★", "G": "■"}

# Where each seat sits, by player count, counted clockwise from the viewer (k = 0, at the
# bottom): the names are compass points of the table as the viewer sees it.
SLOTS = {
    2: ("s", "n"),
    3: ("s", "w", "e"),
    4: ("s", "w", "n", "e"),
    5: ("s", "w", "nw", "ne", "e"),
}


# --- words ------------------------------------------------------------------------------------


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


# --- seats around the table -------------------------------------------------------------------


def place(seat: int, viewer: int | None, players: int) -> tuple[int, str]:
    """(k, slot): how far clockwise from the viewer ``seat`` sits, and where on the table.
    A spectator sees the table from seat 0: that seat is at the bottom (k = 0, slot "s"), its
    panel and its trick cards alike."""
    k = (seat - (viewer or 0)) % players
    return k, SLOTS[players][k]


def initial(position: int) -> str:
    """The seat's mark on its tokens and its panel: its character's initial (unique per table)."""
    return str(CHARACTERS[position])[:1].upper()


@dataclass
class Panel:
    """One seat as the table shows it."""

    position: int
    name: str
    character: str
    initial: str
    k: int
    slot: str
    is_me: bool
    is_bot: bool
    profile: str | None  # the username whose profile the name links to
    cards: int = 0
    tricks: int = 0
    loot: int = 0
    total: int = 0
    team: int | None = None  # 1 for the first player's team, 2 for the others
    my_team: bool = False
    bonus: bool = False
    dealer: bool = False
    first: bool = False
    acting: bool = False
    chosen: bool = False  # has made their discard or pass choice
    seconds_left: int | None = None
    deadline: datetime | None = None
    paused: bool = False
    autopilot: bool = False
    resigned: bool = False
    rating: object = None  # accounts.models.Shown, or None before a first rated game
    here: bool | None = None  # has the game's page open (games.presence); None: no mark (a bot)
    hand: list[str] = field(default_factory=list)  # the replay only: every hand is shown
    choice: list[str] = field(default_factory=list)  # the replay only

    @property
    def classes(self) -> str:
        """The panel's classes after ``seat``: where it sits, and what it is now."""
        words = [f"slot-{self.slot}"]
        if self.acting:
            words.append("acting")
        if self.is_me:
            words.append("me")
        if self.team:
            words.append(f"team team-{self.team}")
        if self.my_team:
            words.append("my-team")
        words.append(f"k-{self.k}")
        return " ".join(words)

    @property
    def bottom(self) -> bool:
        """Drawn at the bottom of the table: the viewer's own seat, or for a spectator the seat
        the table is seen from (seat 0). Every other seat sits around the felt."""
        return self.k == 0

    @property
    def backs(self) -> range:
        """One card back drawn per card in the hand."""
        return range(self.cards)

    @property
    def deadline_iso(self) -> str:
        """The deadline for ``<time datetime>``: ISO 8601 to the second, which every browser
        reads."""
        return "" if self.deadline is None else self.deadline.replace(microsecond=0).isoformat()

    @property
    def clock(self) -> str:
        return "" if self.seconds_left is None else clock_text(self.seconds_left)


def _team_numbers(teams: Sequence[Sequence[int]] | None) -> dict[int, int]:
    """Team 1 (the first player's) or 2 for each seat, once the teams are set."""
    if not teams:
        return {}
    return {s: t + 1 for s, t in enumerate(team_of((tuple(teams[0]), tuple(teams[1]))))}


def panels(seen: View, seats: Sequence[Any], viewer: int | None) -> list[Panel]:
    """The seats in clockwise order from the one on the viewer's left; the viewer's own last
    (it sits at the bottom, beside the hand)."""
    n = seen["players"]
    terms = seen["terms"]
    teams = seen["teams"]
    team_number = _team_numbers(teams)
    mine = None if viewer is None else team_number.get(viewer)
    result = []
    for info in seats:
        p = info.position
        k, slot = place(p, viewer, n)
        result.append(
            Panel(
                position=p,
                name=info.name,
                character=info.character,
                initial=initial(p),
                k=k,
                slot=slot,
                is_me=viewer is not None and p == viewer,
                is_bot=info.is_bot,
                profile=info.username,
                cards=seen["hand_sizes"][p],
                tricks=seen["tricks_won"][p],
                loot=seen["loot_won"][p],
                total=seen["totals"][p],
                team=team_number.get(p),
                my_team=mine is not None and team_number.get(p) == mine,
                bonus=seen["bonus"] == p,
                dealer=seen["dealer"] == p and not seen["over"],
                first=terms is not None and terms["first"] == p and not seen["over"],
                acting=p in seen["to_act"],
                chosen=seen["phase"] == "discard" and seen["chosen"][p],
                deadline=info.deadline,
                paused=info.paused,
                autopilot=info.autopilot,
                resigned=info.resigned,
                rating=getattr(info, "rating", None),
            )
        )
    return sorted(result, key=lambda panel: (panel.k == 0, panel.k))


# --- the trick ----------------------------------------------------------------------------------


def trick_plays(
    leader: int,
    cards: Sequence[str],
    seen: View,
    viewer: int | None,
    winner: int | None = None,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[dict[str, object]]:
    """Each card of a trick with the seat that played it and where that seat sits. ``winner``:
    the seat taking a finished trick (each 1 its opponents played there is marked as loot); for
    a trick in play, the card winning it so far is marked."""
    n = seen["players"]
    winning: int | None
    if winner is None and cards and seen["terms"]:
        terms = seen["terms"]
        winning = trick_winner(leader, cards, n, terms["trump"], terms["super"])
    else:
        winning = winner
    teams = teams or seen["teams"]
    team = team_of((tuple(teams[0]), tuple(teams[1]))) if teams else None
    plays = []
    for seat, card in zip(play_order(leader, n), cards, strict=False):
        k, slot = place(seat, viewer, n)
        loot = winner is not None and team is not None and is_loot(card, seat, winner, team)
        plays.append(
            {
                "seat": seat,
                "card": card,
                "k": k,
                "slot": slot,
                "winning": seat == winning,
                "loot": loot,
            }
        )
    return plays


def finished_trick(
    trick: FinishedTrick,
    seen: View,
    viewer: int | None,
    teams: Sequence[Sequence[int]] | None = None,
) -> dict[str, object]:
    """A finished trick (the view's form): its plays, winner and loot."""
    return {
        "winner": trick["winner"],
        "loot": list(trick["loot"]),
        "plays": trick_plays(
            trick["leader"], trick["cards"], seen, viewer, winner=trick["winner"], teams=teams
        ),
    }


# --- the hand -----------------------------------------------------------------------------------


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


# --- the board ----------------------------------------------------------------------------------


def board_lines(seen: View, names: Sequence[str]) -> list[dict[str, object]]:
    """The five lines of boxes; each covered box with the token on it (its seat and order)."""
    tokens = {}
    for order, (seat, line, box) in enumerate(map(Token.from_json, seen["board"]["tokens"]), 1):
        tokens[line, box] = {
            "seat": seat,
            "order": order,
            "initial": initial(seat),
            "name": names[seat],
        }
    legal = {tuple(m["token"]) for m in seen["legal"] if "token" in m}
    players = seen["players"]
    lines = []
    for line in LINES:
        open_boxes = seen["board"]["open"][line]
        decided = len(open_boxes) == 1
        boxes = []
        for box in BOXES[line]:
            unused = line == "first" and int(box) >= players
            color = box if line in COLOR_LINES and box != "none" else ""
            if line == "first":
                short = names[int(box)] if not unused else str(CHARACTERS[int(box)])
                mark = initial(int(box))
            elif line == "discard":
                short, mark = discard_short(box), ""
            elif line in COLOR_LINES:
                short, mark = box_label(line, box), COLOR_SYMBOLS.get(box, "")
                if line == "super" and box != "none":
                    short = _("%(color)s 1s") % {"color": color_label(box)}
            else:
                short, mark = box, ""
            # What a phone's narrow box says beside the mark, when the words would not fit.
            tiny = None
            if line == "trump" or (line == "super" and box != "none"):
                tiny = "" if line == "trump" else _("1s")
            boxes.append(
                {
                    "id": box,
                    "label": box_label(line, box, names) if not unused else short,
                    "short": short,
                    "tiny": tiny,
                    "mark": mark,
                    "color": color,
                    "token": tokens.get((line, box)),
                    "unused": unused,
                    "open": box in open_boxes and not unused,
                    "chosen": decided and box in open_boxes,
                    "legal": (line, box) in legal,
                    "seat": int(box) if line == "first" else None,
                }
            )
        lines.append({"id": line, "title": line_title(line), "boxes": boxes, "decided": decided})
    return lines


# --- the terms ----------------------------------------------------------------------------------


def terms_items(terms: TermsJson, names: Sequence[str]) -> list[dict[str, object]]:
    """The round's terms as the strip at the top of the table says them."""
    trump, super_ = terms["trump"], terms["super"]
    points = terms["points"]
    return [
        {"line": "first", "title": _("First player"), "value": names[terms["first"]]},
        {"line": "discard", "title": _("Discard"), "value": discard_label(terms["discard"])},
        {
            "line": "trump",
            "title": _("Trump"),
            "value": color_label(trump),
            "color": trump,
            "symbol": COLOR_SYMBOLS[trump],
        },
        {
            "line": "super",
            "title": _("Supertrump"),
            "value": _("none")
            if super_ == "none"
            else _("the %(color)s 1s") % {"color": color_label(super_)},
            "color": "" if super_ == "none" else super_,
            "symbol": COLOR_SYMBOLS.get(super_, ""),
        },
        {
            "line": "points",
            "title": _("Points"),
            "value": ngettext(
                "%(points)s per trick and loot", "%(points)s per trick and loot", abs(points)
            )
            % {"points": points},
        },
    ]


# --- choosing the teams -------------------------------------------------------------------------


def _and(words: Iterable[str]) -> str:
    words = list(words)
    if len(words) == 1:
        return words[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def team_sentence(team: Sequence[int], bonus: int | None, names: Sequence[str], n: int) -> str:
    """“alice and Bob against Carol, Dave and Eve; Bob holds the bonus card.”"""
    others = [s for s in range(n) if s not in team]
    if len(team) == 1:
        text = _("%(solo)s alone against %(others)s") % {
            "solo": names[team[0]],
            "others": _and(names[s] for s in others),
        }
    else:
        text = _("%(team)s against %(others)s") % {
            "team": _and(names[s] for s in team),
            "others": _and(names[s] for s in others),
        }
    if bonus is not None:
        text += "; " + _("%(name)s holds the bonus card (×2)") % {"name": names[bonus]}
    return text + "."


def team_key(partners: Sequence[int], bonus: int | None) -> str:
    """How the page's script looks a choice up: “1,3|1”."""
    return ",".join(str(s) for s in sorted(partners)) + "|" + ("" if bonus is None else str(bonus))


def team_form(seen: View, names: Sequence[str]) -> dict[str, object]:
    """The first player's choice: partners (and, at 5 players, the bonus holder), with the
    sentence each legal choice makes, keyed as the page's script looks them up."""
    n = seen["players"]
    me = seen["seat"]
    sentences = {}
    for move in seen["legal"]:
        if "teams" not in move:
            continue
        team, bonus = move["teams"]["team"], move["teams"]["bonus"]
        partners = [s for s in team if s != me]
        # At 3 players the bonus goes to the solo player by itself: the form sends none.
        sent_bonus = bonus if n == 5 else None
        sentences[team_key(partners, sent_bonus)] = team_sentence(team, bonus, names, n)
    hint = {
        3: _("Take one partner, or none to play alone; the solo player holds the bonus card."),
        4: _("Take one partner."),
        5: _(
            "Take one or two partners, then give the bonus card (×2) to a player of the"
            " two-player team."
        ),
    }[n]
    return {
        "partners": [{"seat": s, "name": names[s]} for s in range(n) if s != me],
        "bonus": [{"seat": s, "name": names[s]} for s in range(n)] if n == 5 else [],
        "sentences": sentences,
        "hint": hint,
    }


# --- scoring ------------------------------------------------------------------------------------


def round_summary(result: RoundView, number: int, names: Sequence[str]) -> dict[str, object]:
    """A finished round: its terms, each team's tricks and loot, and each player's points with
    the arithmetic spelled out."""
    points = result["terms"]["points"]
    bonus = result["bonus"]
    teams = []
    for members in result["teams"]:
        tricks = sum(result["tricks"][s] for s in members)
        loot = sum(result["loot"][s] for s in members)
        total = tricks + loot
        rows = []
        for s in members:
            base = total * points
            formula = _("(%(tricks)s tricks + %(loot)s loot) × %(points)s = %(score)s") % {
                "tricks": tricks,
                "loot": loot,
                "points": points,
                "score": base,
            }
            if s == bonus:
                formula += "; " + _("× 2 for the bonus card = %(score)s") % {"score": base * 2}
            rows.append(
                {
                    "seat": s,
                    "name": names[s],
                    "tricks": result["tricks"][s],
                    "loot": result["loot"][s],
                    "score": result["scores"][s],
                    "formula": formula,
                    "bonus": s == bonus,
                }
            )
        teams.append({"members": rows, "tricks": tricks, "loot": loot, "total": total})
    return {
        "number": number,
        "terms": terms_items(result["terms"], names),
        "points": points,
        "teams": teams,
    }


# --- the move log -------------------------------------------------------------------------------


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
