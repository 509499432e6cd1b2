"""The site can be installed as an app (issue 35): its manifest meets the browsers' installability
rules (those Chromium's and Lighthouse's checks apply), every page links it, and the service
worker keeps the static files and an offline page in each language, and is replaced whenever
one of them changes. The browser's own view of all this: tests/browser/test_install.py."""

from __future__ import annotations

import json
import re
import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import override_settings
from django.urls import reverse

from games.views import install

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    """(width, height) from a PNG's header."""
    with open(path, "rb") as image:
        head = image.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def static_file(url: str) -> str:
    name = url.removeprefix("/static/")
    path = finders.find(name)
    assert path, f"{url} is no static file"
    return path


def read_manifest(client, language: str = "en") -> dict:
    answer = client.get(reverse("manifest"), HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    return json.loads(answer.content)


def test_the_manifest_meets_the_installability_rules(client):
    manifest = read_manifest(client)
    assert manifest["name"] == "Nyet! online" and manifest["short_name"] == "Nyet!"
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["id"] == reverse("lobby")
    assert manifest["start_url"].startswith(manifest["scope"])
    assert client.get(manifest["start_url"]).status_code == 200
    for colour in ("theme_color", "background_color"):
        assert re.fullmatch(r"#[0-9a-f]{6}", manifest[colour]), colour
    # Chromium asks for a PNG of at least 192 px and one of at least 512 px, square, and offers
    # the maskable one to systems that crop icons to their own shape.
    sizes = {}
    for icon in manifest["icons"]:
        path = static_file(icon["src"])
        if icon["type"] == "image/png":
            width, height = png_size(path)
            assert icon["sizes"] == f"{width}x{height}" and width == height, icon
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert {192, 512} <= sizes["any"]
    assert 512 in sizes["maskable"]


def test_the_manifest_speaks_the_visitor_s_language(client):
    manifest = read_manifest(client, "fr")
    assert manifest["lang"] == "fr"
    assert manifest["name"] == "Nyet! en ligne"
    assert manifest["description"].startswith("Jouez à Nyet!")


def test_every_page_links_the_manifest_and_its_icons(client):
    page = client.get(reverse("rules")).content.decode()
    assert f'<link rel="manifest" href="{reverse("manifest")}">' in page
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)"', page)
    assert touch and png_size(static_file(touch[1])) == (180, 180)
    assert re.search(r'<script src="[^"]*/js/install\.js" defer>', page)


def kept_files(script: str) -> list[str]:
    return json.loads(re.search(r"^const KEPT = (\[.*\]);$", script, re.M)[1])


def test_the_service_worker_keeps_the_files_the_pages_load_and_the_offline_page(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"]  # browsers look for a new one on each visit
    script = answer.content.decode()
    assert 'addEventListener("fetch"' in script  # installable only with a fetch handler
    kept = kept_files(script)
    for url in kept:
        static_file(url)
    # Every script and style sheet a page of the site asks for is among them.
    for name in ("rules", "lobby", "account_login"):
        page = client.get(reverse(name)).content.decode()
        for url in re.findall(r'(?:src|href)="(/static/[^"]+\.(?:js|css))"', page):
            assert url in kept, f"{url} ({name}) is not kept"
    assert f"const OFFLINE = {json.dumps(reverse('offline'))};" in script


def test_a_changed_file_makes_a_new_service_worker_in_development(client, tmp_path, settings):
    (tmp_path / "css").mkdir()
    changed = tmp_path / "css" / "site.css"
    changed.write_text("body { color: black; }")
    settings.DEBUG = True
    with override_settings(STATICFILES_DIRS=[tmp_path, *settings.STATICFILES_DIRS]):
        first = client.get("/sw.js").content
        assert client.get("/sw.js").content == first
        changed.write_text("body { color: navy; }")
        assert client.get("/sw.js").content != first


def test_in_production_the_service_worker_is_worked_out_once(client, monkeypatch):
    install._kept_hash_once.cache_clear()
    first = client.get("/sw.js").content
    monkeypatch.setattr(install, "_kept_hash", lambda: pytest.fail("worked out again"))
    assert client.get("/sw.js").content == first


def test_the_offline_page_says_it_in_every_language_the_visitor_s_first(client, django_user_model):
    user = django_user_model.objects.create_user("alice", "alice@example.com", "pw")
    client.force_login(user)
    page = client.get(reverse("offline"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    french = page.index('<section class="panel offline" lang="fr">')
    english = page.index('<section class="panel offline" lang="en">')
    assert french < english
    assert "Vous êtes hors ligne" in page and "You are offline" in page
    # One page for every account on the device: nothing of the player's.
    assert "alice" not in page and "csrfmiddlewaretoken" not in page
