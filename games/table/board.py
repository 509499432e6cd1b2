"""The board as the table draws it in the NYET! phase (``board_lines``: its lines, its boxes and
the tokens on them), and the round's terms it leaves (``terms_items``).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import BOXES, COLOR_LINES, LINES, TermsJson, Token, View
from games.models import CHARACTERS

from .seats import initial
from .words import COLOR_SYMBOLS, box_label, color_label, discard_label, discard_short, line_title


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
