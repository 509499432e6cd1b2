"""Fuzzing every view with hypothesis: whatever a visitor sends to any address of the site, the
answer is never a server error (the test client raises any exception a view lets through), and a
refused request changes nothing.

The addresses are every URL pattern the site's resolver knows (ours, allauth's, the admin's), read
from the resolver itself: a new view is fuzzed without anyone listing it, and the test fails if a
pattern could not be reached.
"""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.urls.resolvers import RegexPattern
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from accounts.models import User
from api.models import ApiToken
from api.tokens import create_token
from games.actions import create_game, invite_player, join_game, post_chat
from games.models import (
    ChatMessage,
    ChatReport,
    Game,
    Invitation,
    MoveRecord,
    PendingEmail,
    Seat,
    Vacation,
)

pytestmark = pytest.mark.django_db


def _join(route: str, more: str) -> str:
    """How Django's resolver joins routes (URLResolver._join_route)."""
    return route + more.removeprefix("^") if route else more


def url_patterns(resolver=None, prefix: str = "", parts=()):
    """(route, the patterns leading to it) for every URL pattern of the site."""
    resolver = resolver or get_resolver()
    for pattern in resolver.url_patterns:
        route = _join(prefix, str(pattern.pattern))
        if isinstance(pattern, URLResolver):
            yield from url_patterns(pattern, route, (*parts, pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield route, (*parts, pattern.pattern)


# Patterns that share a route with an earlier one answer as that one (allauth's login and logout
# under Django's names): the first is the one a visitor reaches.
PATTERNS = dict(reversed(list(url_patterns())))
ROUTES = sorted(PATTERNS)

# Values: text of any script (no lone surrogates: they cannot be sent), numbers, the things the
# site's forms take, and odd values (a NUL, too long...) now and then.
TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)
KNOWN = st.sampled_from(
    [
        "",
        "a long passphrase 42",
        *"""0 1 -1 2 5 99999999999999999999999 1e3 x Y7 B1 G13 trump:R first:0 discard:pass_left
        points:-2 token teams discard pass play easy medium hard live:60 correspondence:86400
        private public end start player staff UTC fr on never daily player@example.com""".split(),
    ]
)
ODD = st.sampled_from(["\x00", "a\x00b", "é" * 20, "\U0001f600", "x" * 1001, "<script>", "%00"])
VALUES = st.one_of(KNOWN, st.integers().map(str), TEXT)


def form_fields() -> set[str]:
    """The fields of every form of ours (a new form's fields are fuzzed without being listed)."""
    from django import forms

    import accounts.forms
    import games.forms.new_game
    import games.forms.players
    import games.forms.table

    names = {f"seat_{p}" for p in range(1, 5)}  # CreateGameForm adds these when made
    game_forms = (games.forms.new_game, games.forms.players, games.forms.table)
    for module in (*game_forms, accounts.forms):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, forms.BaseForm):
                names |= set(value.base_fields)
    return names


# Our forms' fields, and those of allauth's and the admin's pages.
FIELDS = sorted(
    form_fields()
    | {"login", "password", "password1", "password2", "email", "oldpassword", "remember"}
    | {"next", "page", "q", "o", "post", "action", "_selected_action", "code", "key"}
)
# Each known field present or not, with any value (or several), a few unknown fields, and now and
# then one odd value (most odd values are refused at the door, and only one is needed for that).
FORMS = st.builds(
    lambda known, unknown, odd: {**unknown, **known, **odd},
    st.fixed_dictionaries(
        {}, optional={f: VALUES | st.lists(VALUES, min_size=2, max_size=3) for f in FIELDS}
    ),
    st.dictionaries(TEXT.filter(bool), VALUES, max_size=2),
    st.dictionaries(st.sampled_from(FIELDS), ODD, max_size=1) | st.just({}) | st.just({}),
)


def segment(converter: str, known: dict[str, list[str]]):
    """Values for one converter of a route (``<int:pk>``, ``<str:code>``, ``<path:...>``; the
    API's ``<game_id>`` is a string the API reads as a number: any of both)."""
    ids = st.sampled_from(known["ids"])
    numbers = st.one_of(ids, ids, ids, st.integers(0, 10**25).map(str))  # mostly real ones
    if converter == "int":
        return numbers
    words = st.sampled_from(known["words"])
    text = st.one_of(words, words, TEXT, ODD).map(lambda s: s.replace("/", ""))
    if converter == "path":
        return st.one_of(ids, text)
    if converter == "id":  # mostly the site's games, whose ids the API takes as numbers
        return st.sampled_from([*known["games"], "0", str(10**25), "x"])
    return text.filter(bool)


def paths(pattern_parts, known):
    """Strategy: raw paths (not yet percent-encoded) built along the patterns to one route."""
    pieces = []
    for part in pattern_parts:
        text = str(part)
        if isinstance(part, RegexPattern):
            pieces.append(st.from_regex(text, fullmatch=True).filter(lambda s: "\n" not in s))
            continue
        for token in re.split(r"(<[^>]+>)", text):
            if token.startswith("<"):
                inner = token[1:-1]
                converter = "id" if inner.endswith("_id") else "str"
                pieces.append(segment(inner.split(":")[0] if ":" in inner else converter, known))
            elif token:
                pieces.append(st.just(token))
    return st.tuples(*pieces).map(lambda bits: "/" + "".join(bits))


def snapshot():
    """What a refused request must leave as it was."""
    return (
        list(Game.objects.order_by("pk").values_list("pk", "version", "status", "visibility")),
        list(Seat.objects.order_by("pk").values_list("game_id", "position", "user_id")),
        MoveRecord.objects.count(),
        Invitation.objects.count(),
        PendingEmail.objects.count(),
        list(Vacation.objects.order_by("pk").values_list("pk", "ends_at", "ended_at")),
        list(
            User.objects.order_by("pk").values_list(
                "pk",
                "username",
                "display_name",
                "email",
                "is_active",
                "password",
                "language",
                "time_zone",
                "email_turn",
                "email_reminders",
            )
        ),
        list(EmailAddress.objects.order_by("pk").values_list("email", "verified", "primary")),
        list(ChatMessage.objects.order_by("pk").values_list("pk", "text", "hidden")),
        list(ChatReport.objects.order_by("pk").values_list("message_id", "reporter_id")),
        # Not last_used_at: any call with a token notes its use, refused or not.
        list(
            ApiToken.objects.order_by("pk").values_list(
                "pk", "user_id", "name", "digest", "scopes", "revoked_at"
            )
        ),
    )


def refused(response) -> bool:
    """Whether the site said no: an error status, an error on the page or in the messages."""
    if response.status_code >= 400:
        return True
    body = b"" if response.streaming else response.content
    if b'role="alert"' in body or b'class="errorlist' in body:
        return True
    request = response.wsgi_request
    return any(m.level >= messages.ERROR for m in get_messages(request))


def left_and_gone(route: str, path: str, response, before) -> bool:
    """The one 404 of the API that is no refusal: the last person left the table, and it went
    with them (``api.v1._table_change``)."""
    if not route.endswith("/leave") or response.status_code != 404:
        return False
    game_id = path.split("/")[4]
    return (
        any(str(pk) == game_id for pk, *_ in before[0])
        and not Game.objects.filter(pk=game_id).exists()
    )


@pytest.fixture
def site(make_person, settings):
    """People (a player, staff) and games in each state, public and private."""
    player = make_person("player")
    other = make_person("other")
    staff = make_person("staff")
    staff.is_staff = staff.is_superuser = True
    staff.save()
    open_public = create_game(player, players=3)
    open_private = create_game(player, players=3, visibility=Game.Visibility.PRIVATE)
    invite_player(player, open_private.pk, "other")
    active = create_game(player, players=2, visibility=Game.Visibility.PRIVATE)
    join_game(other, active.pk, active.invite_code)
    post_chat(other, active.pk, "good luck")
    games = [open_public, open_private, active]
    return {
        "player": player,
        "users": [None, player, staff],
        "games": [str(g.pk) for g in games],
        "ids": [str(g.pk) for g in games] + [str(player.pk), "0"],
        "words": ["player", "other", "staff", "bot-easy", *(g.invite_code for g in games)],
    }


def test_every_url_pattern_is_fuzzed():
    """The parametrized test below covers the resolver's every pattern, ours first."""
    assert {"", "games/<int:pk>/move/", "invite/<str:code>/", "admin/"} <= set(ROUTES)
    assert len(ROUTES) == len(set(ROUTES)) > 50


# Examples per pattern: Django's admin (read-only for games) and allauth get a few each; ours, the
# most: about 550 requests in all.
EXAMPLES = {"admin/": 1, "accounts/": 3}


@pytest.mark.parametrize("route", ROUTES)
def test_no_address_answers_a_server_error_and_no_refusal_changes_anything(site, route):
    examples = next((n for prefix, n in EXAMPLES.items() if route.startswith(prefix)), 20)
    reached = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,  # no example database: every run fuzzes afresh, the same few hundred
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        path=paths(PATTERNS[route], site),
        user=st.sampled_from(site["users"]),
        method=st.sampled_from(["get", "post"]),
        htmx=st.booleans(),
        query=FORMS,
        form=FORMS,
    )
    def fuzz(path, user, method, htmx, query, form):
        try:
            match = resolve(path)
        except Resolver404:
            match = None
        assume(match is not None and match.route == route)
        url = quote(path, safe="/")  # the client decodes it again: the view gets ``path``
        client = Client()
        if user is not None:
            client.force_login(user)
        before = snapshot()
        headers = {"HX-Request": "true"} if htmx else {}
        if method == "get":
            response = client.get(url, query, headers=headers)
        else:
            response = client.post(url, form, headers=headers)
        assert response.status_code < 500
        reached.append(route)
        if refused(response) and not left_and_gone(route, path, response, before):
            assert snapshot() == before, (path, method, form)

    fuzz()
    assert reached, f"no example reached {route}"


# --- the API, with JSON bodies -----------------------------------------------------------------

API_ROUTES = [route for route in ROUTES if route.startswith("api/v1/")]


def api_operations() -> dict[str, dict[str, list[str]]]:
    """For each route of the API, its methods and the fields of each one's JSON body, read from
    the API's own OpenAPI schema (a new endpoint is fuzzed with its fields without being
    listed). Routes outside the schema (the streams, the documentation) are read with GET."""
    from api.v1 import api

    schema = api.get_openapi_schema()
    components = schema["components"]["schemas"]
    operations = {}
    for path, methods in schema["paths"].items():
        route = path.lstrip("/").replace("{", "<").replace("}", ">")
        operations[route] = {}
        for method, operation in methods.items():
            body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            ref = body.get("schema", {}).get("$ref", "")
            fields = components[ref.rsplit("/", 1)[-1]]["properties"] if ref else {}
            operations[route][method] = sorted(fields)
    return operations


API_OPERATIONS = api_operations()
# Any JSON: scalars of every type (integers past any column's range, floats with NaN and
# infinities, odd strings), then lists and objects of them, nested.
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.sampled_from([2**31, 2**63, 10**30, -(10**30)]),
    st.floats(),
    KNOWN,
    TEXT,
    ODD,
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT | ODD, inner, max_size=3),
    max_leaves=8,
)
# A value for one field of a body: often a string the site knows, or an odd one.
FIELD = st.one_of(KNOWN, ODD, ODD, JSON, st.sampled_from([{"play": "Y7"}, {"pass": "B1"}]))
NO_JSON = st.sampled_from(["", "{", "[" * 100_000, b"\xff\xfe{", '{"a": ' + "9" * 5000 + "}"])


def bodies(fields: list[str]):
    """Mostly an object of the endpoint's own fields, each there or some of them (so that it
    gets past its schema), else any JSON, or a body that is no JSON at all."""
    every = st.fixed_dictionaries(dict.fromkeys(fields, FIELD))
    some = st.fixed_dictionaries({}, optional=dict.fromkeys(fields, FIELD))
    return st.one_of(every, every, some, JSON, NO_JSON).map(
        lambda body: body if isinstance(body, str | bytes) else json.dumps(body)
    )


@pytest.mark.parametrize("route", API_ROUTES)
def test_no_api_call_answers_a_server_error_and_no_refusal_changes_anything(site, route):
    """Each example is sent by every kind of caller: nobody, the player's session, the player's
    token, staff."""
    player = site["player"]
    _, raw = create_token(player, "fuzz", ["read", "play", "bot"])
    callers = [(None, {}), (player, {}), (None, {"Authorization": f"Bearer {raw}"})]
    callers.append((site["users"][2], {}))
    operations = API_OPERATIONS.get(route, {"get": []})
    # The most for the endpoints that read a body: a few for the others, which vary by path.
    examples = 30 if any(operations.values()) else 5

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(
        path=paths(PATTERNS[route], site),
        method=st.sampled_from(sorted(operations)),
        content_type=st.sampled_from(["application/json", "application/json", "text/plain"]),
        data=st.data(),
    )
    def fuzz(path, method, content_type, data):
        assert resolve(path).route == route
        body = data.draw(bodies(operations[method]), label="body")
        url = quote(path, safe="/")
        for user, headers in callers:
            client = Client()
            if user is not None:
                client.force_login(user)
            before = snapshot()
            if method == "get":
                response = client.get(url, headers=headers)
            else:
                response = client.post(url, body, content_type=content_type, headers=headers)
            assert response.status_code < 500, (path, body[:200], response.content[:300])
            if response.status_code >= 400 and not left_and_gone(route, path, response, before):
                assert snapshot() == before, (path, method, body[:200])

    fuzz()


# --- every form of ours, directly ---------------------------------------------------------------


def our_forms():
    """Every form class defined in our form modules and the token page's (not the bases
    they share, which have no field)."""
    from django import forms

    import accounts.forms
    import api.views
    import games.forms.new_game
    import games.forms.players
    import games.forms.table

    return [
        value
        for module in (
            games.forms.new_game,
            games.forms.players,
            games.forms.table,
            accounts.forms,
            api.views,
        )
        for value in vars(module).values()
        if isinstance(value, type)
        and issubclass(value, forms.BaseForm)
        and value.__module__ == module.__name__
        and value.base_fields
    ]


def build(form_class, data, user, rf):
    """A bound form, given what its constructor needs besides the data."""
    from accounts.forms import DeleteAccountForm, LoginForm, SettingsForm

    if form_class is SettingsForm:
        return form_class(data, instance=user)
    if form_class is DeleteAccountForm:
        return form_class(data, user=user)
    if form_class is LoginForm:
        request = rf.post("/")
        request.user = user
        request.session = {}
        return form_class(data, request=request)
    return form_class(data)


def test_every_integer_a_form_takes_is_bounded():
    from django import forms

    for form_class in our_forms():
        fields = {**form_class.base_fields}
        if form_class.__name__ == "CreateGameForm":
            fields = form_class().fields
        for name, field in fields.items():
            if isinstance(field, forms.IntegerField):
                assert field.min_value is not None and field.max_value is not None, name


@pytest.mark.parametrize("form_class", our_forms(), ids=lambda c: c.__name__)
def test_no_form_raises_on_any_input(form_class, make_person, rf):
    user = make_person("player")

    @settings(
        max_examples=40,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(data=FORMS)
    def fuzz(data):
        form = build(form_class, data, user, rf)
        form.is_valid()  # whatever the data, an answer: valid, or errors to show

    fuzz()


@pytest.mark.parametrize("form_class", our_forms(), ids=lambda c: c.__name__)
def test_no_form_repeats_a_long_value(form_class, make_person, rf):
    """Whatever a field's message (Django's "… is not one of the available choices." among
    them), it quotes at most a short prefix of what was sent."""
    from django.utils.datastructures import MultiValueDict

    from common.refusals import QUOTE_LENGTH

    user = make_person("player")
    fields = build(form_class, MultiValueDict(), user, rf).fields  # some are added when made
    sent = "Q" * 999
    form = build(form_class, MultiValueDict({name: [sent] for name in fields}), user, rf)
    form.is_valid()
    for errors in form.errors.values():
        for message in errors:
            assert "Q" * QUOTE_LENGTH not in message, (form_class.__name__, message)
