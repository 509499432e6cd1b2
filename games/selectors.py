"""Reads for pages: each fetches what its page needs in a fixed, small number of queries.

Pages get ``view(state, seat)`` and names, never the stored state: the seed and the other
hands stay on the server.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import clock, engine
from games.engine.board import BOXES, LINES
from games.engine.cards import VALUE
from games.models import CHARACTERS, Game, MoveRecord, Seat

LOG_LENGTH = 40
COLOR_SYMBOLS = {"B": "●", "R": "▲", "Y": "★", "G": "■"}


def color_label(color: str) -> str:
    names = {"B": _("blue"), "R": _("red"), "Y": _("yellow"), "G": _("green")}
    return names[color]


def card_label(card: str) -> str:
    """“blue 7”: what a screen reader says for a card."""
    return f"{color_label(card[0])} {VALUE[card]}"


def line_title(line: str) -> str:
    return {
        "first": _("First player"),
        "discard": _("Discard"),
        "trump": _("Trump"),
        "super": _("Supertrump"),
        "points": _("Points per trick"),
    }[line]


def box_label(line: str, box: str, names: list[str] | None = None) -> str:
    if line == "first":
        return names[int(box)] if names and int(box) < len(names) else str(CHARACTERS[int(box)])
    if line == "discard":
        return {
            "none": _("NYET! (no discard)"),
            "1": _("Discard 1 card"),
            "2": _("Discard 2 cards"),
            "except_1": _("Discard 1 card, not a 1"),
            "pass_left": _("Pass 1 card left"),
        }[box]
    if line in ("trump", "super"):
        return _("none") if box == "none" else color_label(box)
    return box


@dataclass
class SeatInfo:
    position: int
    name: str
    is_bot: bool
    is_me: bool
    character: str
    score: int
    user_id: int | None
    deadline: object = None
    autopilot: bool = False


def seat_infos(seats: list[Seat], me) -> list[SeatInfo]:
    infos = []
    for seat in seats:
        user = seat.user
        infos.append(
            SeatInfo(
                position=seat.position,
                name=str(seat.name),
                is_bot=bool(user and user.is_bot),
                is_me=bool(user and me.is_authenticated and user.pk == me.pk),
                character=str(seat.character),
                score=seat.score,
                user_id=seat.user_id,
                deadline=seat.deadline,
                autopilot=seat.autopilot,
            )
        )
    return infos


def game_page(game_id: int, user) -> dict | None:
    """Everything the game page shows, for ``user`` (anonymous or not seated: a spectator)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return None
    seats = list(game.seats.select_related("user"))
    infos = seat_infos(seats, user)
    names = [s.name for s in infos]
    mine = next((s for s in infos if s.is_me), None)
    me = mine and mine.position
    context = {"game": game, "seats": infos, "me": me, "names": names, "my_seat": mine}
    if game.status == Game.Status.OPEN:
        context["can_start"] = user.is_authenticated and game.created_by_id == user.pk
        return context
    seen = engine.view(engine.state_from_json(game.state), me)
    context["seen"] = seen
    context.update(_board(seen, names))
    context.update(_play_area(seen, names, me))
    context["log"] = move_log(game, names, me)
    return context


def _board(seen: dict, names: list[str]) -> dict:
    covered = {(line, box): seat for seat, line, box in seen["board"]["tokens"]}
    legal = {tuple(m["token"]) for m in seen["legal"] if "token" in m}
    players = seen["players"]
    lines = []
    for line in LINES:
        boxes = []
        for box in BOXES[line]:
            unused = line == "first" and int(box) >= players
            boxes.append(
                {
                    "id": box,
                    "label": box_label(line, box, names),
                    "color": box if line in ("trump", "super") and box != "none" else "",
                    "symbol": COLOR_SYMBOLS.get(box, "") if line in ("trump", "super") else "",
                    "by": covered.get((line, box)),
                    "unused": unused,
                    "open": box in seen["board"]["open"][line] and not unused,
                    "legal": (line, box) in legal,
                }
            )
        lines.append({"id": line, "title": line_title(line), "boxes": boxes})
    return {"board_lines": lines, "board_done": seen["terms"] is not None}


def _play_area(seen: dict, names: list[str], me: int | None) -> dict:
    legal_cards = {m["play"] for m in seen["legal"] if "play" in m}
    hand = [{"card": c, "legal": c in legal_cards} for c in seen["hand"]]
    trick = seen["trick"]
    n = seen["players"]
    current = [{"seat": (trick["leader"] + k) % n, "card": c} for k, c in enumerate(trick["cards"])]
    previous = None
    if seen["tricks"]:
        last = seen["tricks"][-1]
        previous = {
            "winner": last["winner"],
            "loot": last["loot"],
            "plays": [
                {"seat": (last["leader"] + k) % n, "card": c} for k, c in enumerate(last["cards"])
            ],
        }
    team_choices = [
        {
            "value": ",".join(map(str, m["teams"]["team"]))
            + "|"
            + ("" if m["teams"]["bonus"] is None else str(m["teams"]["bonus"])),
            "label": team_label(m["teams"]["team"], m["teams"]["bonus"], names, n),
        }
        for m in seen["legal"]
        if "teams" in m
    ]
    discard_rule = seen["terms"]["discard"] if seen["terms"] else None
    teams = seen["teams"]
    team_rows = []
    if teams:
        for team in teams:
            team_rows.append(
                {
                    "seats": team,
                    "names": [names[s] for s in team],
                    "tricks": sum(seen["tricks_won"][s] for s in team),
                    "loot": sum(seen["loot_won"][s] for s in team),
                }
            )
    my_turn = me is not None and me in seen["to_act"]
    return {
        "hand": hand,
        # While choosing a discard the form shows the hand; no need to show it twice.
        "show_hand": bool(hand) and not (my_turn and seen["phase"] == "discard"),
        "current_trick": current,
        "previous_trick": previous,
        "team_choices": team_choices,
        "discard_rule": discard_rule,
        "discard_count": {"1": 1, "2": 2, "except_1": 1}.get(discard_rule, 0),
        "team_rows": team_rows,
        "my_turn": my_turn,
        "acting_names": [names[s] for s in seen["to_act"]],
        "scorepad": scorepad(seen, n),
    }


def team_label(team: list[int], bonus: int | None, names: list[str], n: int) -> str:
    others = [s for s in range(n) if s not in team]
    label = _("%(team)s against %(others)s") % {
        "team": ", ".join(names[s] for s in team),
        "others": ", ".join(names[s] for s in others),
    }
    if bonus is not None and n != 3:
        label += " — " + _("bonus card: %(name)s") % {"name": names[bonus]}
    return label


def scorepad(seen: dict, n: int) -> dict:
    rows = [
        {"number": k, "scores": r["scores"], "terms": r["terms"]}
        for k, r in enumerate(seen["results"], start=1)
    ]
    return {"rows": rows, "totals": seen["totals"]}


def move_log(game: Game, names: list[str], me: int | None) -> list[str]:
    """The last moves in words. Another seat's discard or pass shows how many cards, not which."""
    records = list(MoveRecord.objects.filter(game=game).order_by("-number")[:LOG_LENGTH])
    return [describe(r, names, me) for r in reversed(records)]


def describe(record: MoveRecord, names: list[str], me: int | None) -> str:
    who = names[record.seat]
    move = record.move
    hidden = record.seat != me
    if "token" in move:
        line, box = move["token"]
        text = _("%(who)s says NYET! to %(line)s: %(box)s") % {
            "who": who,
            "line": line_title(line),
            "box": box_label(line, box, names),
        }
    elif "teams" in move:
        text = _("%(who)s forms the teams: %(teams)s") % {
            "who": who,
            "teams": team_label(move["teams"]["team"], move["teams"]["bonus"], names, len(names)),
        }
    elif "discard" in move:
        count = len(move["discard"])
        if hidden:
            text = ngettext(
                "%(who)s discards %(count)s card", "%(who)s discards %(count)s cards", count
            ) % {"who": who, "count": count}
        else:
            text = _("%(who)s discards %(cards)s") % {
                "who": who,
                "cards": ", ".join(card_label(c) for c in move["discard"]),
            }
    elif "pass" in move:
        if hidden:
            text = _("%(who)s passes a card") % {"who": who}
        else:
            text = _("%(who)s passes %(card)s") % {"who": who, "card": card_label(move["pass"])}
    else:
        text = _("%(who)s plays %(card)s") % {"who": who, "card": card_label(move["play"])}
    if record.timeout:
        text += " " + _("(timed out: a bot moved)")
    return text


def lobby(user) -> dict:
    """Open public tables, and the user's games with those waiting for them first."""
    open_games = list(
        Game.objects.filter(status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC)
        .prefetch_related("seats__user")
        .order_by("-created_at")[:50]
    )
    mine = []
    if user.is_authenticated:
        finished_long_ago = clock.now() - timedelta(days=30)
        seats = list(
            Seat.objects.filter(user=user)
            .exclude(game__status=Game.Status.FINISHED, game__finished_at__lt=finished_long_ago)
            .select_related("game")
            .prefetch_related("game__seats__user")
        )
        # Waiting for me first, soonest deadline first; then the others, newest first.
        waiting = sorted(
            (s for s in seats if s.acting_since and s.game.status == Game.Status.ACTIVE),
            key=lambda s: (s.deadline is None, s.deadline or s.acting_since),
        )
        others = sorted(
            (s for s in seats if s not in waiting), key=lambda s: s.game.created_at, reverse=True
        )
        mine = [{"game": s.game, "seat": s, "waiting": s in waiting} for s in waiting + others]
    return {"open_games": open_games, "my_games": mine}
