"""Names that read alike are one name: nobody may take a username or a display name that a reader
could mistake for another player's, or for a bot's.

Two names clash when their keys are equal. The key is the name folded for case and for
confusable characters (the UTS #39 skeleton, so that a Cyrillic "о" reads as a Latin "o" and "b0t"
as "bot"), repeated until it no longer changes (a skeleton may produce capitals, and folding case
may produce new confusables), with "i" read as "l", and everything but letters, digits and
combining marks dropped ("Medium-bot" is "Medium bot"). A skeleton is only for comparing: it is
never shown.

Why "i" is "l": a capital I looks like a small l ("aIice" is "alice" at a glance), and a name is
the same name in any case ("Ivan" is "ivan"); one key per name cannot keep both unless i and l
are one letter. The price is that "Ali" and "All" clash.

Case is folded first, so that a name is one name in every case, in every script. Where a capital
looks like a letter of another script that its small form does not (a Greek "Β" is a Latin "B", a
Greek "β" is not), the name as written is also compared: a new "Βob" clashes with an existing
"Bob" (an existing "Βob", keyed by its small form "βob", does not stop a later "Bob").

The skeleton is UTS #39's (section 4, "Confusable Detection"): the text in NFD, its
Default_Ignorable_Code_Point characters removed, each character replaced by its prototype in
Unicode's confusables.txt, then NFD again. The data are Unicode's own files, pinned in this folder:
confusables.txt (UNICODE_VERSION) and the Default_Ignorable_Code_Point lines of
DerivedCoreProperties.txt of the same version (confusables-ignorable.txt). NFD is Python's
(unicodedata.unidata_version: 14.0 on Python 3.11), which leaves alone the few characters
encoded since, as any text in them is rare in a name.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

BOT_PREFIX = "bot-"
BOT_WORD = re.compile(r"\bbots?\b")
KEY_CATEGORIES = ("L", "N", "M")  # letters, digits, marks: what a reader reads

# The version of Unicode's security data in CONFUSABLES and IGNORABLE (their headers say the same:
# tests/accounts/test_names_skeleton.py). To move to a newer one, replace both files with that
# version's (confusables-ignorable.txt says how it is cut) and change this.
UNICODE_VERSION = "17.0.0"
DATA = Path(__file__).resolve().parent
CONFUSABLES = DATA / "confusables.txt"
IGNORABLE = DATA / "confusables-ignorable.txt"

# "0061 ;\t0251 ;\tMA\t# ..." (source ; prototype ; type). MA is the only type left since
# Unicode 7.0; it is checked all the same, as the skeleton is defined on it.
CONFUSABLE_LINE = re.compile(r"^([0-9A-F]{4,6}) ;\t([0-9A-F]{4,6}(?: [0-9A-F]{4,6})*) ;\tMA\t")
# "200B..200F    ; Default_Ignorable_Code_Point # Cf   [5] ..."
IGNORABLE_LINE = re.compile(
    r"^([0-9A-F]{4,6})(?:\.\.([0-9A-F]{4,6}))?\s*; Default_Ignorable_Code_Point"
)
# What a reader takes a small i for, beside a capital I (see above).
I_AS_L = str.maketrans({"i": "l"})


def data_version(path: Path) -> str:
    """The Unicode version that a data file's header states."""
    with path.open(encoding="utf-8-sig") as lines:
        for line in lines:
            if not line.startswith("#"):
                break
            if found := re.match(r"# (?:Version: |\w+-)(\d+\.\d+\.\d+)", line):
                return found[1]
    raise ValueError(f"{path.name} states no version")


@functools.cache
def _skeleton_table() -> dict[int, str | None]:
    """For str.translate: each confusable code point to its prototype, each default-ignorable one
    to nothing. Read once per process (about 20 ms)."""
    table: dict[int, str | None] = {}
    with CONFUSABLES.open(encoding="utf-8-sig") as lines:
        for line in lines:
            if found := CONFUSABLE_LINE.match(line):
                table[int(found[1], 16)] = "".join(chr(int(h, 16)) for h in found[2].split())
    with IGNORABLE.open(encoding="utf-8") as lines:
        for line in lines:
            if found := IGNORABLE_LINE.match(line):
                first = int(found[1], 16)
                # Removed before the mapping, so an ignorable one is never mapped.
                table.update(dict.fromkeys(range(first, int(found[2] or found[1], 16) + 1)))
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton(X): equal for two strings a reader may take for one another."""
    nfd = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", nfd.translate(_skeleton_table()))


def confusable_form(name: str) -> str:
    """The name as a reader may take it: case-folded skeleton, to a fixed point."""
    folded = unicodedata.normalize("NFKC", name)
    for _round in range(8):  # two rounds suffice in practice; the bound keeps odd input cheap
        following = skeleton(folded.casefold()).translate(I_AS_L)
        if following == folded:
            break
        folded = following
    return folded


def _letters(form: str) -> str:
    return "".join(c for c in form if unicodedata.category(c)[0] in KEY_CATEGORIES)


def name_key(name: str) -> str:
    """Equal for two names a reader could mistake for one another; empty for a name with no
    letter or digit. What is stored for each player's names."""
    return _letters(confusable_form(name))


def as_written(name: str) -> str:
    """The name's skeleton before its case is folded: its capitals read as what they look like."""
    return skeleton(unicodedata.normalize("NFKC", name))


def name_keys(name: str) -> set[str]:
    """The keys a new name is looked up by: its own, and that of the name as written."""
    return {key for key in (name_key(name), name_key(as_written(name))) if key}


def bot_names() -> set[str]:
    """Every name a bot goes by, in every language of the site."""
    User = get_user_model()  # noqa: N806 (the model imports this module)
    names = {f"{BOT_PREFIX}{level}" for level in User.BotLevel.values}
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            names |= {str(_("%(level)s bot") % {"level": label}) for label in User.BotLevel.labels}
    return names


def reads_as_bot(name: str) -> bool:
    """Whether a name says "bot" (in any disguise: "b0t", "Medium-bot", "Mediumbot", Greek
    capitals) or starts like a bot's username."""
    prefix = confusable_form(BOT_PREFIX)
    for form in {confusable_form(name), confusable_form(as_written(name))}:
        if BOT_WORD.search(form) or form.startswith(prefix):
            return True
    return bool(name_keys(name) & {name_key(n) for n in bot_names()})


def clashes(name: str, *, exclude_user_id: int | None = None) -> bool:
    """Whether ``name`` reads like another player's username or display name."""
    keys = name_keys(name)
    if not keys:
        return False
    others = get_user_model().objects.filter(
        Q(username_key__in=keys) | Q(display_name_key__in=keys)
    )
    if exclude_user_id is not None:
        others = others.exclude(pk=exclude_user_id)
    return others.exists()
