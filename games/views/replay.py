"""A game looked back on: its replay move by move, every hand shown, and its move log."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from games import selectors


def replay(request, pk: int):
    """A finished game move by move, every hand shown; ``?step=N`` is after N moves."""
    try:
        step = int(request.GET.get("step", "0"))
    except ValueError:
        step = 0
    context = selectors.replay_page(pk, step, request.user)
    if context is None:
        raise Http404(_("There is no such game."))
    # Back to a step: htmx asks for the whole page, as the replay keeps no history snapshot.
    step_only = request.htmx and not request.htmx.history_restore_request
    template = "games/replay.html#replay" if step_only else "games/replay.html"
    return render(request, template, context)


def move_log(request, pk: int):
    """Every move of a game, numbered, by round."""
    context = selectors.move_log_page(pk, request.user)
    if context is None:
        raise Http404(_("There is no such game."))
    return render(request, "games/log.html", context)
