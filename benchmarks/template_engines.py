"""What Django's built-in Jinja2 backend would save on the table's hot part: the seats' panels
(``templates/games/_table.html#seats``, about two fifths of the game fragment's drawing), written
again for Jinja2 here with the same markup, drawn both ways from the same contexts.

    python benchmarks/template_engines.py [--games 3] [--language en]

Plays the first moves of whole 4-player games (Easy bots, fixed seeds) on the embedded
database, takes the game page's context for each seat after each move (``selectors.game_page``)
and draws the panels with each engine in turn, checking that both give the same markup (spaces
between tags aside). Prints the CPU per drawing of each, and of the whole fragment with Django.
The Jinja2 copy lives only here: the site's templates stay Django's (BENCHMARKS.md says why).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/engines.sqlite3"
os.environ["CELERY_TASK_ALWAYS_EAGER"] = "true"
os.environ["REDIS_URL"] = ""
os.environ["DEBUG"] = "false"  # the cached template loader, as served
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

# the panels of templates/games/_table.html#seats and #seat_rating, as Jinja2 reads them
SEATS = Path(__file__).with_name("seats.jinja2")


def jinja_seats():
    """The panels as a Jinja2 template, with the site's gettext (Django's catalogs), ``url``
    and the ``words`` filter."""
    import jinja2
    from django.urls import reverse
    from django.utils.translation import gettext, ngettext, pgettext
    from markupsafe import Markup

    from games.templatetags.nyet import words

    environment = jinja2.Environment(autoescape=True, extensions=["jinja2.ext.i18n"])
    # Django's translations return text that the templates mark safe where they hold markup
    # (a plural with <b>); here the strings with markup are the site's own, so the same.
    environment.install_gettext_callables(
        lambda text, **values: Markup(gettext(text) % values if values else gettext(text)),
        lambda one, many, n, **values: Markup(ngettext(one, many, n) % {"count": n, **values}),
        newstyle=False,
        pgettext=lambda context, text: pgettext(context, text),
    )
    environment.filters["words"] = lambda text: Markup(words(text))
    environment.globals["url"] = lambda name, *args: reverse(name, args=args)
    return environment.from_string(SEATS.read_text().rstrip("\n"))


def contexts(games: int):
    import logging

    import django
    from django.conf import settings

    django.setup()
    logging.disable(logging.INFO)
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"  # not printed
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from games import engine, selectors
    from games.actions import create_game, join_game, submit_move
    from games.models import Game

    people = [User.objects.create_user(f"p{i}", f"p{i}@example.com", "pw") for i in range(4)]
    found = []
    for number in range(games):
        with mock.patch("secrets.randbits", return_value=3000 + number):
            game = create_game(people[0], players=4)
            for person in people[1:]:
                join_game(person, game.pk)
        game.refresh_from_db()
        seat_of = {s.position: s.user for s in game.seats.select_related("user")}
        for _ in range(120):  # a round and more: the board, the teams, the tricks
            state = engine.state_from_json(game.state)
            for user in seat_of.values():
                found.append(selectors.game_page(game.pk, user))
            mover = engine.to_act(state)[0]
            move = dict(engine.view(state, mover)["legal"][0])
            del move["seat"]
            submit_move(seat_of[mover], game.pk, game.version, move)
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
    return found


SPACES = re.compile(r">\s+<|\s+")


def same(html: str) -> str:
    return SPACES.sub(lambda m: "><" if m[0].startswith(">") else " ", html).strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--language", default="en")
    options = parser.parse_args()
    found = contexts(options.games)
    from django.template.loader import get_template
    from django.test import RequestFactory
    from django.utils import translation

    django_seats = get_template("games/_table.html#seats")
    fragment = get_template("games/game.html#game")
    jinja = jinja_seats()
    request = RequestFactory().get("/")
    request.user = None
    timed: dict[str, list[float]] = {"Django": [], "Jinja2": [], "fragment": []}
    with translation.override(options.language):
        for context in found:
            context = {**context, "seat_panels": context["panels"]}
            request.user = context["game"].seats.first().user  # any player: the form tokens
            drawn = {}
            for name in ("Django", "Jinja2", "fragment"):
                began = time.process_time()
                if name == "Django":
                    drawn[name] = django_seats.render(context, request)
                elif name == "Jinja2":
                    drawn[name] = jinja.render(context)
                else:
                    fragment.render(context, request)
                timed[name].append(time.process_time() - began)
            assert same(drawn["Django"]) == same(drawn["Jinja2"]), (
                same(drawn["Django"])[:2000],
                same(drawn["Jinja2"])[:2000],
            )
    print(f"{len(found)} tables ({options.language}), CPU ms a drawing, median (mean):")
    for name, label in (
        ("Django", "the seats' panels, Django"),
        ("Jinja2", "the seats' panels, Jinja2"),
        ("fragment", "the whole game fragment, Django"),
    ):
        values = [1000 * t for t in timed[name]]
        print(f"  {label:34} {statistics.median(values):6.3f} ({statistics.fmean(values):.3f})")


if __name__ == "__main__":
    main()
