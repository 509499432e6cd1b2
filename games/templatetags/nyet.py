"""Template helpers for the game pages: cards with their color symbol, seat names."""

from django import template
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

from games.table import card_html

register = template.Library()


@register.simple_tag
def card(code: str, extra_class: str = ""):
    """A card face (``games.table.card_html``): color by class and by symbol."""
    return card_html(code, extra_class)


@register.filter
def at(sequence, index):
    """``names|at:seat``: an item by position."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""


@register.filter
def words(text) -> SafeString:
    """``name|words``: each word of ``text`` in its own ``<span class="word">``, so that a
    narrow box wraps a name between its words and ellipsizes a word too long for a line, never
    cutting one in two (static/css/table.css)."""
    return format_html_join(
        " ", '<span class="word">{}</span>', ((word,) for word in str(text).split())
    )
