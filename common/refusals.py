"""What a refusal says, for the games and the accounts alike (so that neither imports the other
for it): a short quote of what was sent, and when to try again after a limit."""

from django.utils.text import Truncator
from django.utils.translation import ngettext

QUOTE_LENGTH = 40  # characters of someone's input that a message repeats, at most


def quote(value: object) -> str:
    """A short prefix of untrusted input, to repeat in a message ("There is no player called
    “…”"): never the whole of what a visitor sent."""
    return Truncator(str(value)).chars(QUOTE_LENGTH)


def retry_message(seconds: int) -> str:
    """“Try again in 42 seconds.” (in minutes or hours when that is long)."""
    if seconds < 120:
        return ngettext(
            "Try again in %(count)d second.", "Try again in %(count)d seconds.", seconds
        ) % {"count": seconds}
    if seconds < 2 * 3600:
        minutes = -(-seconds // 60)
        return ngettext(
            "Try again in %(count)d minute.", "Try again in %(count)d minutes.", minutes
        ) % {"count": minutes}
    hours = -(-seconds // 3600)
    return ngettext("Try again in %(count)d hour.", "Try again in %(count)d hours.", hours) % {
        "count": hours
    }
