"""Read a page as the hidden-information rules see it: the cards each ``data-zone`` shows.

Every card a page draws carries ``data-card``; every element that shows cards names what it
shows with ``data-zone``. ``read_zones`` returns the cards per zone (a card outside any zone is
under ``None``) and the page's text outside the zones listed in ``skip_text``.
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class _Zones(HTMLParser):
    def __init__(self, skip_text):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str | None]] = []
        self.cards: dict[str | None, Counter] = {}
        self.skip_text = set(skip_text)
        self.text: list[str] = []

    def zone(self) -> str | None:
        return next((z for _, z in reversed(self.stack) if z), None)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-card" in attrs:
            self.cards.setdefault(attrs.get("data-zone") or self.zone(), Counter())[
                attrs["data-card"]
            ] += 1
        if tag not in VOID:
            self.stack.append((tag, attrs.get("data-zone")))

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        if not any(z in self.skip_text for _, z in self.stack):
            self.text.append(data)


def read_zones(html: str, skip_text=()) -> tuple[dict[str | None, Counter], str]:
    parser = _Zones(skip_text)
    parser.feed(html)
    parser.close()
    return parser.cards, " ".join(parser.text)
