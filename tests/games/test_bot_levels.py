"""The bot levels are two lists that cannot be one: the site's (``User.BotLevel``, with their
labels, the choices of an account's field) and the bots' (``games.bots.BOTS``, the bot that plays
each), because the accounts import no game code and the bots no Django. Everything else is
derived from the site's list; these tests fail when the two disagree."""

from accounts.models import User
from games import bots
from games.models import THINKING_BOT_LEVELS


def test_the_site_offers_the_levels_the_bots_play_in_the_same_order():
    assert tuple(User.BotLevel.values) == bots.LEVELS


def test_the_levels_named_for_a_role_are_levels_of_both_lists():
    named = {bots.STAND_IN, User.DEFAULT_BOT_LEVEL, *THINKING_BOT_LEVELS}
    assert named <= set(User.BotLevel.values)
    assert named <= set(bots.BOTS)
