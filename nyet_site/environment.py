"""How a setting is read from its environment variable (nyet_site/settings.py): a value that
cannot be one is refused at start, with the variable's name, rather than failing later."""

import json
import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_number(name: str, default: float, kind=int, minimum: float = 1):
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    try:
        number = kind(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, not {value!r}.") from None
    if number < minimum:
        raise ImproperlyConfigured(f"{name} must be at least {minimum}, not {value!r}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


def env_vapid_keys(dev_file: Path, production: bool) -> tuple[str, str]:
    """VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; in development, when both are unset, the pair in
    ``dev_file`` if there is one (`make run` writes it), so that push works with no setup.
    Production never reads that file: a development key pair must not reach real browsers."""
    public = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
    private = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
    if public or private or production or not dev_file.exists():
        return public, private
    try:
        keys = json.loads(dev_file.read_text())
        return keys["VAPID_PUBLIC_KEY"], keys["VAPID_PRIVATE_KEY"]
    except (ValueError, KeyError, TypeError):
        raise ImproperlyConfigured(
            f"{dev_file} holds no VAPID key pair: delete it (make run writes a new one)."
        ) from None
