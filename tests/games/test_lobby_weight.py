"""The home page with its styles and scripts stays under 60 KB over the wire (issue 32).

Measured as production sends them: the static files compressed by WhiteNoise (gzip at its level,
9; its brotli files are smaller still, so gzip is the bound), and the page gzipped at level 6,
a proxy's usual level (Django sends the HTML uncompressed: no GZipMiddleware, whose compression
of pages carrying a CSRF token BREACH can read). The page is the heaviest lobby there is: the 50
open tables it lists at most, each of 5 seats, and a player with a game of every kind and a
dozen people online."""

import gzip
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from whitenoise.compress import Compressor

from accounts.models import User
from games import presence, selectors
from games.actions import create_game, play_against_bots
from tests.steering import your_games

pytestmark = pytest.mark.django_db
BUDGET = 60 * 1024
PAGE_LEVEL = 6
LINKED = re.compile(r'<(?:link rel="stylesheet" href|script src)="([^"]+)"')


def static_bytes(url: str) -> bytes:
    assert url.startswith(settings.STATIC_URL) or url.startswith("/" + settings.STATIC_URL), url
    path = finders.find(url.split(settings.STATIC_URL, 1)[1])
    assert path, url
    with open(path, "rb") as file:
        return file.read()


def over_the_wire(html: str) -> dict[str, int]:
    """Each part of the page as sent: the page gzipped at level 6, each stylesheet and script as
    WhiteNoise compresses it."""
    sizes = {"page": len(gzip.compress(html.encode(), compresslevel=PAGE_LEVEL))}
    for url in LINKED.findall(html):
        sizes[url] = len(Compressor.compress_gzip(static_bytes(url)))
    return sizes


def test_whitenoise_compresses_the_static_files_with_gzip():
    """What the figures assume: WhiteNoise (production's static storage) writes a gzip copy of
    each file, which it serves to any browser that accepts gzip."""
    assert Compressor(quiet=True).use_gzip


def heaviest_lobby(act, make_person) -> User:
    alice = make_person("alice")
    your_games(act, alice, make_person("bob"))
    act(play_against_bots, alice, players=5, time_control="live")
    for n in range(selectors.LOBBY_OPEN_TABLES):
        host = make_person(f"host-with-a-long-name-{n:02}")
        act(create_game, host, players=5, bots=["easy", None, None, None])
        presence.seen(host.pk)
    return alice


def test_the_heaviest_home_page_with_its_styles_and_scripts_is_under_60_kb(
    act, client, make_person
):
    alice = heaviest_lobby(act, make_person)
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert html.count('class="panel felt-head table-card"') == selectors.LOBBY_OPEN_TABLES
    sizes = over_the_wire(html)
    assert any(url.endswith(".css") for url in sizes) and any(url.endswith(".js") for url in sizes)
    total = sum(sizes.values())
    report = ", ".join(f"{name} {size / 1024:.1f} KB" for name, size in sizes.items())
    print(
        f"\nhome page over the wire: {total / 1024:.1f} KB ({report}; page {len(html)} bytes raw)"
    )
    assert total < BUDGET, f"{total / 1024:.1f} KB: {report}"


def test_a_visitors_home_page_is_under_60_kb(client):
    html = client.get("/").content.decode()
    total = sum(over_the_wire(html).values())
    print(f"\na visitor's home page over the wire: {total / 1024:.1f} KB")
    assert total < BUDGET
