"""The site as an ASGI application, served by uvicorn (``make run``, and production): open game
pages wait for their next event (games/stream.py) on the event loop, not in a thread each."""

import os

from django.conf import settings
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nyet_site.settings")

application = get_asgi_application()

if settings.DEBUG:
    # In development the site serves its own static files, as runserver did.
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    application = ASGIStaticFilesHandler(application)
