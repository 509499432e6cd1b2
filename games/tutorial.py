"""The first-game guide: one round on a fixed deal at the real table, with a hint at each step.

A tutorial is a real ``Game`` (``Game.tutorial``, started by ``actions.tutorial.start``): the
newcomer in seat 0 against three bots, a private table with no clock, played to 1 point so
that it ends after its one round (and a round at -2 points, where nobody reaches 1, ends it
too: ``actions.moves.do_move``). It is unrated and left out of records, stats and emails.

The hints are worked out from what the seat sees (``view(state, seat)``), never scripted by
move number: whatever legal move the player makes instead of the suggested one, the next hint
still fits. The suggested move is what a Medium bot would play for the seat, from the same
view, so it is always legal; bots are seeded from the game's seed and version, so the same
moves replay the same round (the browser test follows the hints to the end).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User
from games.bots import make_bot
from games.engine import View, legal_cards, move_to_json
from games.engine.board import TermsJson
from games.engine.moves import MoveJson
from games.models import Game
from games.table import box_label, card_label, color_label, line_title

# The deal: seat 0 deals, so the newcomer places the first Token; following the hints leaves
# them the first player (they form the teams), line 2 asks everyone to pass a card to the left,
# and their team takes the round. ``tests/games/test_tutorial.py`` checks all of this.
SEED = 19
PLAYERS = 4
BOT_LEVEL = User.BotLevel.EASY
HINT_LEVEL = "medium"


def unfinished(user: Any) -> Game | None:
    """The user's tutorial in play, to resume."""
    if not user.is_authenticated:
        return None
    return (
        Game.objects.filter(tutorial=True, status=Game.Status.ACTIVE, seats__user=user)
        .order_by("-pk")
        .first()
    )


def finished(user: Any) -> bool:
    """Whether the user has played a tutorial to its end."""
    return (
        user.is_authenticated
        and Game.objects.filter(
            tutorial=True, status=Game.Status.FINISHED, seats__user=user
        ).exists()
    )


def offer(user: Any) -> dict[str, int | None] | None:
    """What the lobby offers a person who has not finished a tutorial: start it, or resume
    the one in play (``resume``: its id). One query."""
    if not user.is_authenticated or user.is_site_bot or getattr(user, "bot_account", False):
        return None
    statuses = dict(
        Game.objects.filter(
            tutorial=True,
            seats__user=user,
            status__in=[Game.Status.ACTIVE, Game.Status.FINISHED],
        ).values_list("status", "pk")
    )
    if Game.Status.FINISHED in statuses:
        return None
    return {"resume": statuses.get(Game.Status.ACTIVE)}


# --- hints ----------------------------------------------------------------------------------


def suggestion(seen: View) -> MoveJson | None:
    """The move a Medium bot would make for the seat now (its engine JSON form), or None when
    the seat has nothing to do."""
    if not seen["legal"]:
        return None
    # Seeded from where the round stands: the same view always suggests the same move.
    where = (len(seen["board"]["tokens"]), len(seen["tricks"]), len(seen["trick"]["cards"]))
    bot = make_bot(HINT_LEVEL, seed="tutorial/{}/{}/{}".format(*where))
    return move_to_json(bot.choose(seen))


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(card_label(c) for c in cards)


def _try(move: MoveJson, names: Sequence[str]) -> str:
    """The suggested move in words: “Try: …”."""
    seat = move["seat"]
    if "token" in move:
        line, box = move["token"]
        return _("Try: say “nyet!” to %(box)s on the line “%(line)s”.") % {
            "box": box_label(line, box, names),
            "line": line_title(line),
        }
    if "teams" in move:
        partners = [names[s] for s in move["teams"]["team"] if s != seat]
        return _("Try: take %(names)s as your partner.") % {"names": ", ".join(partners)}
    if "discard" in move:
        return _("Try: discard %(cards)s.") % {"cards": _cards(move["discard"])}
    if "pass" in move:
        return _("Try: pass %(card)s to %(name)s.") % {
            "card": card_label(move["pass"]),
            "name": names[(seat + 1) % len(names)],
        }
    return _("Try: play %(card)s.") % {"card": card_label(move["play"])}


def _board(seen: View, mine: bool) -> tuple[str, list[str]]:
    covered = len(seen["board"]["tokens"])
    if covered < seen["players"]:  # the whole story once around the table, then a reminder
        lines = [
            _(
                "Before any card is played, the players choose this round's Terms together."
                " Each line of the Board is one of them: who plays first, what is discarded or"
                " passed, the trump, the supertrump and what each Trick is worth."
            ),
            _(
                "In turn, each player covers one open box with a Token: that says “nyet!” to the"
                " option, and it is gone. A line's last open box cannot be covered: it becomes"
                " the round's Term. When every line has one box left, the Terms are set."
            ),
        ]
    else:
        lines = [
            ngettext(
                "%(count)d Token is on the Board. A line's last open box is the round's Term.",
                "%(count)d Tokens are on the Board. A line's last open box is the round's Term.",
                covered,
            )
            % {"count": covered}
        ]
    if mine:
        lines.append(
            _(
                "Say “nyet!” to what would not suit your hand: a trump colour you hold few cards"
                " of, or another player going first."
            )
        )
    return _("The Board: saying “nyet!”"), lines


def _terms(seen: View) -> TermsJson:
    """The round's Terms: set once the Board is done, before the teams, discards and Tricks."""
    terms = seen["terms"]
    assert terms is not None, seen["phase"]
    return terms


def _seat(seen: View) -> int:
    """The newcomer's seat: a tutorial's hints are drawn for the player, never a spectator."""
    seat = seen["seat"]
    assert seat is not None
    return seat


def _teams(seen: View, names: Sequence[str], mine: bool) -> tuple[str, list[str]]:
    first = _terms(seen)["first"]
    lines = [
        _(
            "The first player (line 1) forms the teams. At four players, two play against two:"
            " partners add up their Tricks and Loot, and both score the total."
        )
    ]
    if mine:
        lines.append(_("You are the first player this round: choose your partner."))
    else:
        lines.append(
            _("%(name)s is the first player and chooses a partner.") % {"name": names[first]}
        )
    return _("Teams"), lines


def _discard(seen: View, names: Sequence[str], mine: bool) -> tuple[str, list[str]]:
    rule = _terms(seen)["discard"]
    n = seen["players"]
    if rule == "pass_left":
        lines = [
            _(
                "Line 2 says: everyone passes one card to the player on their left. All choose"
                " at the same time and in secret; you receive a card from %(name)s once everyone"
                " has chosen."
            )
            % {"name": names[(_seat(seen) - 1) % n]},
            _("Pass a card you will not need: a low card of a colour that is not trump."),
        ]
        return _("Passing a card"), lines
    lines = [
        _(
            "Line 2 says how many cards each player discards (in another round it could ask you"
            " to pass a card to your left instead). All choose at the same time and in secret."
        ),
        _("Discard what you will not need: low cards of colours that are not trump."),
    ]
    if rule == "except_1":
        lines.append(_("This round the discarded card may not be a 1."))
    return _("Discards"), lines


def _trump_words(terms: TermsJson) -> str:
    trump = color_label(terms["trump"])
    if terms["super"] == "none":
        return _(
            "Trump is %(trump)s: a trump beats every card of the other colours. There is no"
            " supertrump this round."
        ) % {"trump": trump}
    return _(
        "Trump is %(trump)s: a trump beats every card of the other colours. The three 1s of"
        " %(super)s are supertrumps: they count as trumps, and the last one played takes the"
        " Trick."
    ) % {"trump": trump, "super": color_label(terms["super"])}


def _tricks(seen: View, names: Sequence[str], mine: bool) -> tuple[str, list[str]]:
    terms = _terms(seen)
    trick = seen["trick"]["cards"]
    done = len(seen["tricks"])
    lines = []
    if mine and not trick:
        lines.append(
            _("You lead this Trick: play any card. The others must follow its colour if they can.")
        )
    elif mine:
        led = trick[0]
        playable = legal_cards(seen["hand"], tuple(trick), terms["trump"], terms["super"])
        follows = len(playable) < len(seen["hand"])
        if follows:
            lines.append(
                _(
                    "You must follow the colour led if you can (trump, if a trump was led): the"
                    " cards you may not play are greyed out."
                )
            )
        else:
            lines.append(
                _(
                    "You cannot follow the colour led (%(card)s): you may play any card, and a"
                    " trump would take the Trick."
                )
                % {"card": card_label(led)}
            )
    else:
        waiting = [names[s] for s in seen["to_act"]]
        lines.append(_("Waiting for %(names)s.") % {"names": ", ".join(waiting)})
    # One rule of the Tricks at a time, as the round goes on.
    rules = [
        _trump_words(terms),
        _(
            "Who takes the Trick: the last supertrump played; else the highest trump; else the"
            " highest card of the colour led. Equal cards: the last one played wins."
        ),
        _(
            "Loot: each 1 that the other team plays into a Trick your team takes is Loot, worth"
            " as much as a Trick."
        ),
        ngettext(
            "Points: each Trick and each Loot card scores %(points)d point this round (line 5).",
            "Points: each Trick and each Loot card scores %(points)d points this round (line 5).",
            abs(terms["points"]),
        )
        % {"points": terms["points"]},
    ]
    lines.append(rules[done % len(rules)])
    # A seat yet to play to this Trick holds one card per Trick left, this one included.
    count = done + max(seen["hand_sizes"])
    return _("Tricks: %(done)d of %(count)d played") % {"done": done, "count": count}, lines


def _done(seen: View, names: Sequence[str]) -> tuple[str, list[str]]:
    result = seen["results"][0]
    me = _seat(seen)
    team = next(t for t in result["teams"] if me in t)
    tricks = sum(result["tricks"][s] for s in team)
    loot = sum(result["loot"][s] for s in team)
    mine = result["scores"][me]
    won = mine == max(result["scores"])
    lines = [
        _("You played a whole round of Nyet!: the Board, the teams, the cards and the Tricks."),
        (
            _(
                "Your team won the round: %(tricks)d Tricks and %(loot)d Loot, %(score)d points"
                " each."
            )
            if won
            else _(
                "Your team took %(tricks)d Tricks and %(loot)d Loot, %(score)d points each: the"
                " other team did better this time."
            )
        )
        % {"tricks": tricks, "loot": loot, "score": mine},
        _(
            "A real game has several rounds (eight at four players), each with its own Terms;"
            " the most points at the end wins."
        ),
    ]
    return _("You finished the tutorial"), lines


def hint(
    seen: View, names: Sequence[str], ended: bool = False, read_only: bool = False
) -> dict[str, Any]:
    """The hint panel for the seat's view ``seen``: a ``title``, its ``lines``, and while it is
    the seat's move a suggested ``move`` with its words (``try``); ``done`` at the end.
    ``ended``: the game is over (also a round at -2 that did not reach the target);
    ``read_only``: a past step of the table, shown while the bots' moves are paced."""
    phase = seen["phase"]
    if ended or seen["over"] or phase == "over":
        title, lines = _done(seen, names)
        return {"step": "done", "title": title, "lines": lines, "done": True}
    mine = not read_only and seen["seat"] in seen["to_act"]
    if phase == "board":
        title, lines = _board(seen, mine)
    elif phase == "teams":
        title, lines = _teams(seen, names, mine)
    elif phase == "discard":
        title, lines = _discard(seen, names, mine)
    else:
        title, lines = _tricks(seen, names, mine)
    move = suggestion(seen) if mine else None
    panel = {"step": phase, "title": title, "lines": lines, "done": False, "move": move}
    if move is not None:
        panel["try"] = _try(move, names)
        panel.update(_marks(move))
    return panel


def _marks(move: MoveJson) -> dict[str, Any]:
    """What the table marks as the suggestion: a box (``"line:box"``) or cards."""
    if "token" in move:
        return {"box": ":".join(move["token"])}
    if "discard" in move:
        return {"cards": list(move["discard"])}
    if "pass" in move:
        return {"cards": [move["pass"]]}
    if "play" in move:
        return {"cards": [move["play"]]}
    return {"partners": [s for s in move["teams"]["team"] if s != move["seat"]]}


def mark(context: dict[str, Any]) -> None:
    """Mark the hint's suggested move on the table drawn in ``context`` (``suggested`` on a
    Board box or on cards of the hand), for the templates to highlight."""
    panel = context.get("tutorial") or {}
    box = panel.get("box")
    if box:
        line_id, box_id = box.split(":")
        for line in context["board_lines"]:
            for item in line["boxes"]:
                item["suggested"] = line["id"] == line_id and item["id"] == box_id
    cards = list(panel.get("cards", ()))
    for item in context["hand"]:
        item["suggested"] = item["card"] in cards
        if item["suggested"]:
            cards.remove(item["card"])  # one copy of a card held twice
