"""The first player's team choice: the form, and the sentence each choice makes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _

from games.engine import View


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
