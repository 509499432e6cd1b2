"""The French catalogue is complete and compiled: a string marked for translation and left
untranslated, or a .po changed without its .mo, fails here rather than showing English to a
French player.

makemessages runs on a copy of the source tree, so the repository's locale/ is never written
(the command writes into the locale folder that holds the files it reads). Needs GNU gettext,
as makemessages does; .ci/run installs it.
"""

from __future__ import annotations

import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CATALOGUE = Path("locale") / "fr" / "LC_MESSAGES"
# Only what makemessages reads: the sources and templates, not the venv or the screenshots.
LEFT_OUT = shutil.ignore_patterns(
    ".*", "__pycache__", "screenshots", "artifacts", "vendor", "staticfiles", "media"
)


def run(*args, cwd=None) -> str:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(map(str, args))}:\n{done.stdout}{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory) -> Path:
    """The French .po as `make messages` would leave it after reading today's code."""
    copy = tmp_path_factory.mktemp("source") / "nyet"
    shutil.copytree(ROOT, copy, ignore=LEFT_OUT)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "nyet_site.settings"}
    done = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "fr", "--no-location"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return copy / CATALOGUE / "django.po"


def entries(po: Path, *which: str) -> str:
    """The entries msgattrib selects (``--untranslated``, ``--only-fuzzy``), obsolete ones
    aside (makemessages keeps them commented out, they are never shown)."""
    return run("msgattrib", "--no-obsolete", *which, str(po))


def test_every_string_in_the_code_has_its_french(refreshed):
    assert entries(refreshed, "--untranslated") == "", (
        "run `make messages` and translate these:\n" + entries(refreshed, "--untranslated")
    )


def test_no_french_is_a_guess(refreshed):
    # msgmerge marks "fuzzy" a string it matched to a similar old one: gettext never shows it.
    assert entries(refreshed, "--only-fuzzy") == "", (
        "check these and remove their fuzzy flag:\n" + entries(refreshed, "--only-fuzzy")
    )


def messages(mo: Path) -> dict:
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)


def test_the_compiled_catalogue_is_the_po_compiled(tmp_path):
    compiled = tmp_path / "django.mo"
    run("msgfmt", "--check-format", "-o", str(compiled), str(ROOT / CATALOGUE / "django.po"))
    assert messages(ROOT / CATALOGUE / "django.mo") == messages(compiled), (
        "locale/fr/LC_MESSAGES/django.mo is older than django.po: run compilemessages"
    )


def test_a_missing_translation_is_caught(refreshed, tmp_path):
    """The checks above would fail on a catalogue with an empty or fuzzy French string."""
    po = refreshed.read_text()
    untranslated = tmp_path / "untranslated.po"
    untranslated.write_text(po + '\nmsgid "A sentence nobody translated"\nmsgstr ""\n')
    assert "A sentence nobody translated" in entries(untranslated, "--untranslated")
    fuzzy = tmp_path / "fuzzy.po"
    fuzzy.write_text(po + '\n#, fuzzy\nmsgid "A guessed sentence"\nmsgstr "Une phrase"\n')
    assert "A guessed sentence" in entries(fuzzy, "--only-fuzzy")


def test_french_says_points_in_the_plural_below_minus_one():
    """French agrees with the absolute value: "-15 points", "-1 point" (a score is often below
    zero in Nyet!); gettext's plural formula has no unary minus, hence ``n + 1 < 0``."""
    catalogue = gettext.GNUTranslations((ROOT / CATALOGUE / "django.mo").open("rb"))
    said = {n: catalogue.ngettext("%(points)s point", "%(points)s points", n) for n in (-15, -1, 1)}
    assert said == {-15: "%(points)s points", -1: "%(points)s point", 1: "%(points)s point"}
