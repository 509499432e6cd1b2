"""What makes the site an installable app: the web app manifest, the service worker and the
page it shows when the server cannot be reached.

The service worker is served from the site's root, so that it may look after every page of the
site; it keeps the static files (their hashed names in production) and the offline page, and
touches nothing else: fragments, streams and the API always go to the server."""

from __future__ import annotations

import functools
import hashlib
import json

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import get_template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import override
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# The static files every page may need (base.html, the table's and the accounts' pages), kept
# by the service worker so that a page loads them from the device.
KEPT_FILES = (
    "css/site.css",
    "css/table.css",
    "css/in_play.css",
    "css/tutorial.css",
    "accounts/accounts.css",
    "js/table.js",
    "js/live.js",
    "js/chat.js",
    "js/lobby.js",
    "js/install.js",
    "js/notifications.js",
    "django_htmx/htmx-2.min.js",
    "favicon.svg",
    "favicon-turn.svg",
    "icons/icon-192.png",
)
# The page's colours (site.css: --felt for the bar the system draws, --page behind the page).
THEME_COLOR = "#1f6b43"
BACKGROUND_COLOR = "#f3efe3"


@require_safe
def manifest(request):
    """The web app manifest, in the visitor's language."""
    start = reverse("lobby")
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": static("favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    document = {
        "id": start,
        "name": _("Nyet! online"),
        "short_name": _("Nyet!"),
        "description": _("Play Nyet!, the trick-taking card game, live or by correspondence."),
        "lang": request.LANGUAGE_CODE,
        "start_url": start,
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": icons,
    }
    answer = JsonResponse(document, json_dumps_params={"ensure_ascii": False})
    answer["Content-Type"] = "application/manifest+json"
    return answer


@require_safe
@cache_control(no_cache=True)
def service_worker(request):
    """The service worker's script. Its text changes whenever a kept file or the offline page
    does (``_version``), which is how browsers learn that there is a new one to install."""
    kept = [static(name) for name in KEPT_FILES]
    script = get_template("install/service_worker.js").render(
        {
            "version": _version(),
            "kept": json.dumps(kept),
            "offline": json.dumps(reverse("offline")),
            "icon": json.dumps(static("icons/icon-192.png")),
        }
    )
    return HttpResponse(script, content_type="text/javascript")


@require_safe
def offline(request):
    """What the service worker shows for a page it could not fetch: the same words in each of
    the site's languages, the visitor's first (the page is kept once, for any later language)."""
    first = request.LANGUAGE_CODE
    codes = [first] + [code for code, _name in settings.LANGUAGES if code != first]
    messages = []
    for code in codes:
        with override(code):
            messages.append(
                {
                    "code": code,
                    "title": _("You are offline"),
                    "text": _(
                        "The site cannot be reached just now. Your games wait for you: "
                        "try again when you are back online."
                    ),
                    "again": _("Try again"),
                }
            )
    return render(request, "install/offline.html", {"messages": messages})


def _version() -> str:
    return _kept_hash() if settings.DEBUG else _kept_hash_once()


def _kept_hash() -> str:
    digest = hashlib.sha256()
    for name in KEPT_FILES:
        digest.update(static(name).encode())
        path = finders.find(name)
        if path:
            with open(path, "rb") as kept:
                digest.update(kept.read())
    for template in ("install/offline.html", "install/service_worker.js"):
        digest.update(get_template(template).template.source.encode())
    return digest.hexdigest()[:16]


# In production the files change only with a deployment, which starts new processes.
_kept_hash_once = functools.cache(_kept_hash)
