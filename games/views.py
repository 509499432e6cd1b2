"""Thin views: validate the request with a form, call one action or selector, render.

Every POST works without JavaScript (the answer redirects back to the page); with HTMX
(``request.htmx``) the answer is the game fragment, ``games/game.html#game``.

A game the visitor may not see (``selectors.can_view``) is answered exactly as a game that does
not exist: 404, or under HTMX a redirect to the lobby that says so. Requests that cost others
something are counted (``games.limits``); over a limit the answer is 429 and nothing changes.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from games import actions, clock, limits, lookups, player_record, selectors, stats, tutorial
from games.actions import ActionError
from games.actions.deadlines import VACATION_DAYS, current_vacation, vacation_left
from games.actions.errors import RateLimited
from games.actions.lobby import PLAY_AGAINST_BOTS_SECONDS, accept_rematch, decline_rematch
from games.actions.notify import unsubscribe as unsubscribe_from
from games.actions.notify import unsubscriber
from games.actions.tutorial import start as start_tutorial
from games.engine import PLAYER_COUNTS
from games.forms import (
    DEFAULT_PLAYERS,
    BotAccountForm,
    ChatForm,
    ConfirmForm,
    CreateGameForm,
    GamesInPlayForm,
    InviteForm,
    JoinForm,
    LevelForm,
    MoveForm,
    PlayAgainstBotsForm,
    PositionForm,
    ReportForm,
    VacationForm,
    first_error,
    new_game_choices,
    time_label,
)
from games.models import Game
from games.notifications import read_unsubscribe_token
from games.presence import online_now

GAME_FRAGMENT = "games/game.html#game"


def no_such_game(request):
    """The answer for a game that does not exist, or that this visitor may not see."""
    message = _("There is no such game.")
    if request.htmx:
        messages.error(request, message)
        response = HttpResponseClientRedirect(reverse("lobby"))
        response.status_code = 404
        return response
    raise Http404(message)


def too_many(request, over: RateLimited, pk: int | None = None):
    """429: the request did nothing; the message says when to try again."""
    if pk is not None and request.htmx:
        context = selectors.game_page(pk, request.user)
        if context is not None:
            context["error"] = over.message
            response = render(request, GAME_FRAGMENT, context, status=429)
            response["Retry-After"] = str(over.retry_after)
            return response
    back = reverse("game", args=[pk]) if pk is not None else reverse("lobby")
    response = render(request, "429.html", {"message": over.message, "back": back}, status=429)
    response["Retry-After"] = str(over.retry_after)
    return response


def limited(group: str):
    """Count the request in ``games.limits``; over the limit answer 429 and do nothing."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            try:
                limits.hit(request, group)
            except RateLimited as over:
                return too_many(request, over, kwargs.get("pk"))
            return view(request, *args, **kwargs)

        return wrapped

    return decorator


def people_only(view):
    """A bot account plays through the API only: the site's own forms refuse it, with a
    message, and do nothing (after ``login_required``)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if getattr(request.user, "bot_account", False):
            error = ActionError(
                _("A bot account plays through the API only, not on the site's pages."),
                code="bot_account",
            )
            pk = kwargs.get("pk")
            if pk is None:
                messages.error(request, error.message)
                return redirect("lobby")
            return _answer(request, pk, error)
        return view(request, *args, **kwargs)

    return wrapped


def person_post(group: str):
    """The guard of every form of the site's pages that changes something: a POST
    (``require_POST``) by a logged-in person (``login_required``, then ``people_only``),
    counted against the limit ``group`` (``limited``), in that order: a refused method, an
    anonymous visitor or a bot account is never counted against a limit
    (tests/games/test_view_guard.py)."""

    def decorator(view):
        return require_POST(login_required(people_only(limited(group)(view))))

    return decorator


def page_not_found(request, exception):
    """404: with the view's own sentence ("There is no such game.") when it gave one; never the
    resolver's internals."""
    message = None
    if type(exception) is Http404 and exception.args and isinstance(exception.args[0], str):
        message = exception.args[0]
    return render(request, "404.html", {"message": message}, status=404)


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


def profile(request, username: str):
    """A player's page: their record, figures, rating history and latest games."""
    context = player_record.profile_page(username, viewer=request.user)
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/profile.html", context)


def player_games(request, username: str, which: str):
    """A player's games in play, or finished games, a page at a time."""
    context = player_record.player_games_page(
        username, which, request.GET.get("page"), viewer=request.user
    )
    if context is None:
        raise Http404(_("There is no such player."))
    return render(request, "accounts/games.html", context)


def game(request, pk: int):
    """The game page. ``?invite=<code>`` shows an open private table to whoever holds its invite
    code (the invite link's page polls this way); ``?step=K`` the table right after move K, as
    the visitor's seat saw it then (``game_step``)."""
    if "step" in request.GET:
        return game_step(request, pk, request.GET["step"])
    code = request.GET.get("invite", "")
    context = selectors.game_page(pk, request.user, invite_code=code)
    if context is None:
        return no_such_game(request)
    if code:
        context["invite"] = code
    if request.htmx:
        return _fragment(request, context)
    context["chat"] = selectors.table_chat(pk, request.user, seated=context["me"] is not None)
    return render(request, "games/game.html", context)


def _fragment(request, context: dict, status: int = 200):
    """The ``#game`` fragment; for a player of a finished game whose rematch has started, the
    new game instead (htmx follows ``HX-Redirect``): their open page moves there by itself."""
    rematch = context.get("rematch")
    if rematch and rematch["new_game_id"] and rematch["me"] is not None:
        return HttpResponseClientRedirect(reverse("game", args=[rematch["new_game_id"]]))
    return render(request, GAME_FRAGMENT, context, status=status)


# The page's table with its chat (``games/game.html#table_and_chat``): the answer to a form that
# seats the player or takes them from their seat, for the chat comes and goes with the seat.
TABLE_AND_CHAT = "games/game.html#table_and_chat"


STEP = re.compile(r"[0-9]{1,9}")


def game_step(request, pk: int, step: str):
    """A past table, read only, for the page to show the moves it missed one by one
    (static/js/live.js paces them ``BOT_PAUSE_SECONDS`` apart). 400 for a step that is not a
    number or that the game has not made."""
    if not STEP.fullmatch(step):
        message = _("A step is a move number, such as 12.")
        return render(request, "400.html", {"message": message}, status=400)
    try:
        context = selectors.game_step(pk, request.user, int(step))
    except selectors.NoSuchStep:
        message = _("This game has no move %(step)s.") % {"step": int(step)}
        return render(request, "400.html", {"message": message}, status=400)
    if context is None:
        return no_such_game(request)
    template = GAME_FRAGMENT if request.htmx else "games/game.html"
    return render(request, template, context)


@require_GET
def poll(request, pk: int):
    """Tiny when nothing changed (204, one query for a public game); the fresh game fragment
    when it did. A private game also checks who asks (``selectors.can_view``)."""
    invite_code = request.GET.get("invite", "")
    row = lookups.visible_game(pk, request.user, invite_code, *lookups.GUARD_FIELDS)
    if row is None:
        return no_such_game(request)
    if str(row.version) == request.GET.get("version"):
        return HttpResponse(status=204)
    return game(request, pk)


poll.stays_cheap = True  # it runs every few seconds: one query, the player is not loaded


def _answer(request, pk: int, error: ActionError | None = None, whole: bool = False):
    """The game fragment for HTMX (``whole``: the table with its chat), else a redirect back to
    the game page."""
    if isinstance(error, RateLimited):
        return too_many(request, error, pk)
    context = selectors.game_page(pk, request.user)
    if context is None:
        return no_such_game(request)
    if request.htmx:
        context["error"] = error.message if error else None
        if whole:
            context["chat"] = selectors.table_chat(
                pk, request.user, seated=context["me"] is not None
            )
            return render(request, TABLE_AND_CHAT, context)
        return _fragment(request, context)
    if error:
        messages.error(request, error.message)
    return redirect("game", pk=pk)


def _refusal(request, pk: int, form=None, invite_code: str = ""):
    """The answer when the game is not this visitor's to see, or the form is invalid; None when
    the request may go on to its action."""
    if lookups.visible_game(pk, request.user, invite_code) is None:
        return no_such_game(request)
    if form is not None and not form.is_valid():
        return _answer(request, pk, ActionError(first_error(form), code="malformed"))
    return None


def _table_action(request, pk: int, action, *args, whole: bool = False, **options):
    try:
        action(request.user, pk, *args, **options)
    except ActionError as error:
        return _answer(request, pk, error, whole=whole)
    return _answer(request, pk, whole=whole)


@person_post("play")
def move(request, pk: int):
    form = MoveForm(request.POST)
    if refused := _refusal(request, pk, form):
        return refused
    seat = None
    if form.cleaned_data["kind"] == "teams":
        seat = selectors.position_of(pk, request.user)
    return _table_action(
        request,
        pk,
        actions.submit_move,
        form.cleaned_data["version"],
        form.move(seat),
        round_number=form.cleaned_data["round"],
    )


@person_post("create")
def rematch(request, pk: int):
    """Ask for a rematch (``actions.rematch``): the other players' pages show the offer, and
    the asker's says whom it waits for. When it starts at once (bots only), or has started,
    the player goes to the new game."""
    try:
        offer = actions.rematch(request.user, pk)
    except ActionError as error:
        return _answer(request, pk, error)
    return _after_rematch(request, pk, offer)


@person_post("play")
def rematch_answer(request, pk: int, answer: str):
    """Accept or decline the open rematch offer (``offer``: the one the page showed)."""
    if refused := _refusal(request, pk):
        return refused
    raw = request.POST.get("offer", "")
    if not STEP.fullmatch(raw):
        return _answer(
            request, pk, ActionError(_("That rematch offer is not understood."), "malformed")
        )
    action = accept_rematch if answer == "accept" else decline_rematch
    try:
        offer = action(request.user, pk, int(raw))
    except ActionError as error:
        return _answer(request, pk, error)
    return _after_rematch(request, pk, offer)


def _after_rematch(request, pk: int, offer):
    if offer.new_game_id is None:
        return _answer(request, pk)
    if request.htmx:
        return HttpResponseClientRedirect(reverse("game", args=[offer.new_game_id]))
    return redirect("game", pk=offer.new_game_id)


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


@person_post("play")
def join(request, pk: int):
    code = JoinForm(request.POST).code()
    if refused := _refusal(request, pk, invite_code=code):
        return refused
    return _table_action(request, pk, actions.join_game, code, whole=True)


@person_post("play")
def leave(request, pk: int):
    if refused := _refusal(request, pk):
        return refused
    try:
        actions.leave_game(request.user, pk)
    except ActionError as error:
        return _answer(request, pk, error, whole=True)
    if selectors.game_page(pk, request.user) is None:
        # The table is gone (nobody is left at it), or private and no longer this player's to see.
        messages.success(request, _("You have left the table."))
        if request.htmx:
            return HttpResponseClientRedirect(reverse("lobby"))
        return redirect("lobby")
    return _answer(request, pk, whole=True)


@person_post("play")
def add_bot(request, pk: int):
    form = LevelForm(request.POST)
    if refused := _refusal(request, pk, form):
        return refused
    return _table_action(request, pk, actions.add_bot, form.cleaned_data["level"])


@person_post("play")
def seat_bot_account(request, pk: int):
    """Seat a bot account, by its username, in the first open seat (the table's creator)."""
    form = BotAccountForm(request.POST)
    if refused := _refusal(request, pk, form):
        return refused
    return _table_action(request, pk, actions.seat_bot_account, form.cleaned_data["username"])


@person_post("play")
def remove_bot(request, pk: int):
    form = PositionForm(request.POST)
    if refused := _refusal(request, pk, form):
        return refused
    return _table_action(request, pk, actions.remove_bot, form.cleaned_data["position"])


@person_post("play")
def start(request, pk: int):
    form = LevelForm(request.POST, default=User.DEFAULT_BOT_LEVEL)
    if refused := _refusal(request, pk, form):
        return refused
    return _table_action(request, pk, actions.start_game, form.cleaned_data["level"])


def invite(request, code: str):
    """The page an invite link opens: an open table, with a button to join it. Once the game
    has started the link shows nothing more: its players and invitees go to the game page."""
    game_row = lookups.game_by_invite(code)
    if game_row is None:
        raise Http404(_("This invite link is not valid."))
    if game_row.status != Game.Status.OPEN:
        if selectors.can_view(game_row, request.user):
            return redirect("game", pk=game_row.pk)
        raise Http404(_("This game has already started."))
    context = selectors.game_page(game_row.pk, request.user, invite_code=code)
    context["invite"] = code
    return render(request, "games/game.html", context)


@person_post("invite")
def invite_player(request, pk: int):
    form = InviteForm(request.POST)
    if refused := _refusal(request, pk, form):
        return refused
    try:
        invitee = actions.invite_player(request.user, pk, form.cleaned_data["username"])
    except ActionError as error:
        return _answer(request, pk, error)
    messages.success(request, _("Invitation sent to %(name)s.") % {"name": invitee.name})
    return _answer(request, pk)


@person_post("play")
def come_back(request, pk: int):
    if refused := _refusal(request, pk):
        return refused
    return _table_action(request, pk, actions.come_back)


@person_post("play")
def resign(request, pk: int):
    """Give up this game for good (after the "Yes" of the confirmation): a bot plays on."""
    if refused := _refusal(request, pk, ConfirmForm(request.POST)):
        return refused
    return _table_action(request, pk, actions.resign)


@person_post("play")
def abort(request, pk: int):
    """End the game before its first card: nobody wins, nothing is rated."""
    if refused := _refusal(request, pk, ConfirmForm(request.POST)):
        return refused
    return _table_action(request, pk, actions.abort_game)


@login_required
def vacation(request):
    """Start or end a vacation: deadlines in correspondence games wait meanwhile."""
    if request.method == "POST":
        form = VacationForm(request.POST)
        try:
            if not form.is_valid():
                raise ActionError(first_error(form), code="days")
            if form.cleaned_data["action"] == "end":
                actions.end_vacation(request.user)
                messages.success(request, _("Welcome back: your deadlines run again."))
            else:
                actions.start_vacation(request.user, form.cleaned_data["days"])
                messages.success(request, _("Enjoy your vacation."))
        except ActionError as error:
            messages.error(request, error.message)
        return redirect("vacation")
    now = clock.now()
    context = {
        "current": current_vacation(request.user),
        "days_left": round(vacation_left(request.user, now) / timedelta(days=1), 1),
        "days_a_year": VACATION_DAYS,
    }
    return render(request, "games/vacation.html", context)


@csrf_exempt  # mail clients post one-click unsubscribes (RFC 8058) without a CSRF token
def unsubscribe(request, token: str):
    """Turn one kind of email off, from the link in an email: no login needed, the signed token
    says who and what. GET shows a button; POST (that button, or the mail client) does it."""
    try:
        user_id, preference = read_unsubscribe_token(token)
        user = unsubscriber(user_id)
    except signing.SignatureExpired:
        return render(
            request, "games/unsubscribe.html", {"error": _("This link has expired.")}, status=400
        )
    except (signing.BadSignature, User.DoesNotExist):
        return render(
            request, "games/unsubscribe.html", {"error": _("This link is not valid.")}, status=400
        )
    label = User._meta.get_field(preference).verbose_name
    if request.method == "POST":
        unsubscribe_from(user, preference)
        return render(request, "games/unsubscribe.html", {"done": True, "label": label})
    return render(request, "games/unsubscribe.html", {"label": label, "token": token})


CHAT_FRAGMENT = "games/game.html#chat_lines"


def _chat_answer(request, pk: int, error: ActionError | None = None, note: str = ""):
    """The chat's lines for HTMX (with the refusal or the note), else back to the game page."""
    if not request.htmx:
        if error:
            messages.error(request, error.message)
        elif note:
            messages.success(request, note)
        return redirect(reverse("game", args=[pk]) + "#chat")
    chat = selectors.table_chat(pk, request.user)
    if chat is None:
        return no_such_game(request)
    chat["error"] = error.message if error else ""
    chat["note"] = note
    response = render(request, CHAT_FRAGMENT, {"chat": chat})
    if request.method == "POST" and error is None and not note:
        response["HX-Trigger"] = "nyet:chat-sent"  # chat.js empties the box
    return response


@require_http_methods(["GET", "POST"])
@login_required
@people_only
def chat(request, pk: int):
    """GET: the table chat's lines (204 when none is newer than ``?after=``). POST: write."""
    if not selectors.chat_seated(request.user, pk):
        return no_such_game(request)
    if request.method == "GET":
        after = request.GET.get("after", "")
        if after.isdigit() and not selectors.chat_news(pk, int(after)):
            return HttpResponse(status=204)
        return _chat_answer(request, pk)
    try:
        limits.hit(request, "chat")
        form = ChatForm(request.POST)
        if not form.is_valid():
            raise ActionError(first_error(form), code="malformed")
        actions.post_chat(request.user, pk, form.cleaned_data["text"])
    except RateLimited as over:
        # 429 and Retry-After, as every limit answers: the chat's lines with the message for
        # htmx (base.html swaps a 429), the limit's page otherwise.
        if not request.htmx:
            return too_many(request, over, pk)
        response = _chat_answer(request, pk, over)
        response.status_code = 429
        response["Retry-After"] = str(over.retry_after)
        return response
    except ActionError as error:
        return _chat_answer(request, pk, error)
    return _chat_answer(request, pk)


@require_POST
@login_required
@people_only
def report_chat(request, pk: int):
    """Report a message to staff: they read reports in the admin."""
    form = ReportForm(request.POST)
    try:
        if not form.is_valid():
            raise ActionError(first_error(form), code="malformed")
        actions.report_chat(request.user, pk, form.cleaned_data["message"])
    except ActionError as error:
        return _chat_answer(request, pk, error)
    return _chat_answer(request, pk, note=_("Reported: staff will read it."))
