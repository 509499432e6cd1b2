"""Template helpers for the game pages: cards with their color symbol, seat names."""

from django import template
from django.utils.html import format_html

from games.engine.cards import VALUE
from games.selectors import COLOR_SYMBOLS, card_label, color_label

register = template.Library()


@register.simple_tag
def card(code: str, extra_class: str = ""):
    """A card face: color by class and by symbol (for color-blind players and grey screens)."""
    return format_html(
        '<span class="card card-{} {}" data-card="{}" title="{}">'
        '<span class="card-symbol" aria-hidden="true">{}</span>'
        '<span class="card-value" aria-hidden="true">{}</span>'
        '<span class="visually-hidden">{}</span></span>',
        code[0],
        extra_class,
        code,
        card_label(code),
        COLOR_SYMBOLS[code[0]],
        VALUE[code],
        card_label(code),
    )


@register.filter
def card_name(code: str) -> str:
    return card_label(code)


@register.filter
def color_name(color: str) -> str:
    return color_label(color)


@register.filter
def color_symbol(color: str) -> str:
    return COLOR_SYMBOLS.get(color, "")


@register.filter
def at(sequence, index):
    """``names|at:seat``: an item by position."""
    try:
        return sequence[int(index)]
    except (IndexError, TypeError, ValueError):
        return ""
