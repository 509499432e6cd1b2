"""The lobby, the games in play, and the ways to a new game: a table made from the new-game
form, one click against bots, the tutorial; the rules and the site's figures beside them."""

from __future__ import annotations

import math
from collections.abc import Iterable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import urlencode
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts.models import User
from games import actions, limits, selectors, stats, tutorial
from games.actions import ActionError
from games.actions.errors import RateLimited
from games.actions.lobby import PLAY_AGAINST_BOTS_SECONDS
from games.actions.tutorial import start as start_tutorial
from games.bots import strength
from games.bots.hard import EXPERT_SEARCHES
from games.engine import PLAYER_COUNTS
from games.forms import first_error
from games.forms.new_game import (
    DEFAULT_PLAYERS,
    CreateGameForm,
    GamesInPlayForm,
    PlayAgainstBotsForm,
    new_game_choices,
    time_label,
)
from games.models import Game
from games.presence import online_now
from games.views.answers import people_only, person_post, too_many


def lobby(request):
    context = selectors.lobby(request.user)
    context["tutorial_offer"] = tutorial.offer(request.user)  # "Learn to play", until done once
    context.update(new_game_choices())
    context["live_by_default"] = context["default_time"].startswith(f"{Game.TimeControl.LIVE}:")
    # "New game" at the end of a game comes here with its player count.
    wanted = request.GET.get("players", "")
    counts = {str(n): n for n in PLAYER_COUNTS}
    context["players_wanted"] = counts.get(wanted, DEFAULT_PLAYERS)
    # One-click play offers first what the player last played against bots.
    last = context["last_against_bots"] or {
        "players": DEFAULT_PLAYERS,
        "pace": Game.TimeControl.LIVE,
    }
    context["play_against_bots"] = {
        **last,
        "paces": [
            (value, label, _("%(time)s a move") % {"time": time_label(seconds)})
            for value, label in Game.TimeControl.choices
            if (seconds := PLAY_AGAINST_BOTS_SECONDS.get(value))
        ],
        "level": User.DEFAULT_BOT_LEVEL.label,
    }
    context["online"] = online_now(viewer=request.user)
    return render(request, "games/lobby.html", context)


def games_in_play(request):
    """The public games in play, to watch, filtered by a plain GET form. Filters that are not
    understood show every game in play, with a message saying so (never a 500)."""
    form = GamesInPlayForm(request.GET)
    filters = form.filters()
    context = selectors.games_in_play(filters, request.GET.get("page"))
    if not form.is_valid():
        context["error"] = _("%(error)s Showing every game in play instead.") % {
            "error": first_error(form)
        }
        form = GamesInPlayForm()  # every filter back to "any", as the list is
    context["form"] = form
    context["filter_query"] = urlencode(filters)  # kept by the page links
    return render(request, "games/in_play.html", context)


def rules(request):
    return render(request, "games/rules.html")


def bots(request):
    """Choosing a bot: each level, and how much stronger it is than the one below, as the
    arena measured it (``games.bots.strength``), per table size with its 95% interval."""
    label = dict(User.BotLevel.choices)
    matchups: dict[tuple[str, str], dict] = {}
    for measured in strength.published():
        strong, weak = measured["strong"], measured["weak"]
        matchup = matchups.setdefault(
            (strong, weak), {"strong": label[strong], "weak": label[weak], "sizes": []}
        )
        matchup["sizes"].append(
            {
                "players": measured["players"],
                "games": measured["games"],
                "margin": _spread(measured["margin"], points=True),
                "facing": _spread(measured["facing"], points=True),
                "strong_wins": _spread(measured["wins"][strong]),
                "weak_wins": _spread(measured["wins"][weak]),
            }
        )
    context = {
        "matchups": list(matchups.values()),
        # Where Expert runs no search of its own it is Hard (hard.EXPERT_SEARCHES).
        "expert_own": _sizes(n for n in PLAYER_COUNTS if EXPERT_SEARCHES.get(n)),
        "expert_as_hard": _sizes(n for n in PLAYER_COUNTS if not EXPERT_SEARCHES.get(n)),
        "fewest_games": strength.PUBLISHED_GAMES,
    }
    return render(request, "games/bots.html", context)


def _sizes(players: Iterable[int]) -> str:
    """Table sizes as a reader lists them: "2, 3 or 4"."""
    return get_text_list([str(n) for n in players], _("or"))


def _spread(figures: list[float] | None, points: bool = False) -> dict | None:
    """A measured mean and its 95% interval, as words: points a round to a tenth with their
    sign, or a share as a whole percentage."""
    if figures is None:
        return None

    def shown(value: float) -> str:
        # Halves up, as a reader rounds (round() takes them to even); number_format would
        # cut the digits off; and no "-0.0".
        if points:
            tenths = math.floor(value * 10 + 0.5)
            return ("+" if tenths > 0 else "") + number_format(tenths / 10, 1)
        return number_format(math.floor(100 * value + 0.5), 0)

    mean, low, high = figures
    return {"mean": shown(mean), "low": shown(low), "high": shown(high), "exact": low == high}


def tutorial_page(request):
    """The first-game guide: what it is, and the button that starts (or resumes) it. A visitor
    signs up (or logs in) first, and comes back here."""
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_signup')}?{urlencode({'next': request.path})}")
    context = {"resume": tutorial.unfinished(request.user), "done": tutorial.finished(request.user)}
    return render(request, "games/tutorial.html", context)


@person_post("create")
def tutorial_start(request):
    """Start the tutorial, or go back to the one in play."""
    try:
        game_row = start_tutorial(request.user)
    except ActionError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game", pk=game_row.pk)


def site_stats(request):
    return render(request, "games/stats.html", stats.site_stats())


@person_post("create")
def create(request):
    form = CreateGameForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("lobby")
    try:
        new = actions.create_game(request.user, **form.options())
    except ActionError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game", pk=new.pk)


def _play_against_bots_choice(form: PlayAgainstBotsForm) -> dict:
    """What the one-click play will make, in words, before it is made."""
    options = form.options()
    seconds = PLAY_AGAINST_BOTS_SECONDS[options["time_control"]]
    return {
        "players": options["players"],
        "pace": options["time_control"],
        "pace_words": Game(time_control=options["time_control"], move_seconds=seconds).pace,
        "level": User.DEFAULT_BOT_LEVEL.label,
    }


@require_http_methods(["GET", "POST"])
@login_required
@people_only
def play_against_bots(request):
    """The lobby's one-click play ("Play against bots: 3 players"): POST makes the table, with
    the new-game form's checks, limits and refusals, and takes the player to it. GET is where a
    visitor who chose before logging in comes back to (``login_required``'s ``next``): the
    same choice, with the one button that makes it (a GET changes nothing)."""
    if request.method == "GET":
        form = PlayAgainstBotsForm(request.GET)
        if not form.is_valid():
            messages.error(request, first_error(form))
            return redirect("lobby")
        return render(request, "games/play_bots.html", _play_against_bots_choice(form))
    try:
        limits.hit(request, "create")
    except RateLimited as over:
        return too_many(request, over)
    form = PlayAgainstBotsForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("lobby")
    try:
        new = actions.play_against_bots(request.user, **form.options())
    except ActionError as error:
        messages.error(request, error.message)
        return redirect("lobby")
    return redirect("game", pk=new.pk)
