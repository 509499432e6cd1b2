"""The games' own system checks, registered when ``GamesConfig.ready`` imports this module."""

from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

from games import push


def vapid_keys(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: object
) -> list[CheckMessage]:
    """Push notifications need the site's key pair: without it, or with a pair that does not
    match, every message fails (`manage.py check --deploy`, `make build`)."""
    public, private = settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY
    found: list[CheckMessage] = []
    if not (public or private):
        if settings.PRODUCTION:
            found.append(
                Warning(
                    "No VAPID key pair: no push notification can be sent.",
                    hint="Set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (manage.py vapid_keys).",
                    id="games.W001",
                )
            )
    elif problem := push.key_problem(public, private):
        found.append(
            Warning(
                f"{problem}: no push notification can be sent.",
                hint="Set a pair made by manage.py vapid_keys (browsers subscribed with another "
                "public key must subscribe again).",
                id="games.W002",
            )
        )
    if not settings.VAPID_SUBJECT.startswith(("mailto:", "https://")):
        found.append(
            Warning(
                f"VAPID_SUBJECT is {settings.VAPID_SUBJECT!r}: push services want a mailto: or "
                "https: address to reach the site's operator.",
                id="games.W003",
            )
        )
    return found


register(vapid_keys, Tags.security, deploy=True)
