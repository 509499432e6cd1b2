"""Changes to an account that reach into other apps.

Accounts import none of the games' actions: an app that keeps something of a player's registers,
in its ``AppConfig.ready``, what must happen before the account goes (``before_deletion``).
"""

from __future__ import annotations

from collections.abc import Callable

from .models import PushDevice, User

_BEFORE_DELETION: dict[str, Callable[[User], None]] = {}


def before_deletion(name: str, hook: Callable[[User], None]) -> None:
    """Call ``hook(user)`` before any account is deleted (registered once per ``name``)."""
    _BEFORE_DELETION[name] = hook


def delete_account(user: User) -> None:
    """Delete a person's account, once every app has let go of it (the games: seats in play go
    to the stand-in bot, open tables are left; finished games keep their seats, which then show
    "(former player)", and the rating history stays with the games)."""
    if user.is_site_bot:
        raise ValueError("bots are not deleted this way")
    for hook in _BEFORE_DELETION.values():
        hook(user)
    user.delete()


# A player's browsers that take notifications, at most: each message goes to every one of them,
# so a script that subscribes again and again cannot make one occasion cost the site hundreds.
MOST_PUSH_DEVICES = 10


def add_push_device(user: User, endpoint: str, p256dh: str, auth: str, browser: str) -> PushDevice:
    """The browser's subscription, for ``user``: the same browser subscribing again (its
    endpoint) is one device, with its new keys, whoever it was for before (a browser belongs to
    the account that turned push on last in it). Past ``MOST_PUSH_DEVICES``, the oldest go."""
    device, _ = PushDevice.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "browser": browser},
    )
    newest = user.push_devices.order_by("-created_at", "-pk")
    kept = newest.values_list("pk", flat=True)[:MOST_PUSH_DEVICES]
    user.push_devices.exclude(pk__in=list(kept)).delete()
    return device


def remove_push_device(user: User, device_id: int) -> bool:
    """Stop pushing to one of ``user``'s devices; whether there was such a device."""
    deleted, _ = PushDevice.objects.filter(user=user, pk=device_id).delete()
    return bool(deleted)
