"""Template helpers for the game pages: cards with their color symbol, seat names."""

from django import template

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
