"""Starting the first-game guide (``games.tutorial``): a table of its own against bots."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import User
from games import tutorial
from games.models import Game

from .errors import ActionError
from .lobby import create_game


def start(user) -> Game:
    """The user's unfinished tutorial, or a new one on the fixed deal (``ActionError`` for an
    anonymous visitor or a bot account). The user's row is locked meanwhile: two clicks at
    once make one tutorial."""
    if not user.is_authenticated:
        raise ActionError(_("Log in to play."), code="login")
    with transaction.atomic():
        User.objects.select_for_update().filter(pk=user.pk).first()
        game = tutorial.unfinished(user)
        if game is None:
            game = create_game(
                user,
                players=tutorial.PLAYERS,
                bots=[tutorial.BOT_LEVEL] * (tutorial.PLAYERS - 1),
                target=1,
                visibility=Game.Visibility.PRIVATE,
                tutorial_seed=tutorial.SEED,
            )
    return game
