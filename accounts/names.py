"""Names that read alike are one name: nobody may take a username or a display name that a reader
could mistake for another player's, or for a bot's.

Two names clash when their keys are equal. The key is the name folded for case and for
confusable characters (the UTS #39 skeleton, from ICU's spoof checker, so that a Cyrillic "о"
reads as a Latin "o" and "b0t" as "bot"), repeated until it no longer changes (a skeleton may
produce capitals, and folding case may produce new confusables), with everything but letters,
digits and combining marks dropped ("Medium-bot" is "Medium bot"). A skeleton is only for
comparing: it is never shown.
"""

from __future__ import annotations

import re
import threading
import unicodedata

import icu
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext_lazy as _

BOT_PREFIX = "bot-"
BOT_WORD = re.compile(r"\bbots?\b")
KEY_CATEGORIES = ("L", "N", "M")  # letters, digits, marks: what a reader reads

_local = threading.local()


def _checker() -> icu.SpoofChecker:
    # One spoof checker per thread: ICU does not promise that one may be shared.
    checker = getattr(_local, "checker", None)
    if checker is None:
        checker = _local.checker = icu.SpoofChecker()
    return checker


def confusable_form(name: str) -> str:
    """The name as a reader may take it: case-folded skeleton, to a fixed point."""
    folded = unicodedata.normalize("NFKC", name)
    for _round in range(8):  # two rounds suffice in practice; the bound keeps odd input cheap
        following = _checker().getSkeleton(0, folded.casefold())
        if following == folded:
            break
        folded = following
    return folded


def name_key(name: str) -> str:
    """Equal for two names a reader could mistake for one another; empty for a name with no
    letter or digit."""
    return "".join(c for c in confusable_form(name) if unicodedata.category(c)[0] in KEY_CATEGORIES)


def bot_names() -> set[str]:
    """Every name a bot goes by, in every language of the site."""
    User = get_user_model()  # noqa: N806 (the model imports this module)
    names = {f"{BOT_PREFIX}{level}" for level in User.BotLevel.values}
    for language, _label in settings.LANGUAGES:
        with translation.override(language):
            names |= {str(_("%(level)s bot") % {"level": label}) for label in User.BotLevel.labels}
    return names


def reads_as_bot(name: str) -> bool:
    """Whether a name says "bot" (in any disguise: "b0t", "Medium-bot", "Mediumbot") or starts
    like a bot's username."""
    form = confusable_form(name)
    if BOT_WORD.search(form) or form.startswith(confusable_form(BOT_PREFIX)):
        return True
    return name_key(name) in {name_key(n) for n in bot_names()}


def clashes(name: str, *, exclude_user_id: int | None = None) -> bool:
    """Whether ``name`` reads like another player's username or display name."""
    key = name_key(name)
    if not key:
        return False
    others = get_user_model().objects.filter(Q(username_key=key) | Q(display_name_key=key))
    if exclude_user_id is not None:
        others = others.exclude(pk=exclude_user_id)
    return others.exists()
