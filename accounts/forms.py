"""Forms for the account pages: settings, a browser's push subscription, deleting an account,
and allauth's password reset made to ignore bots."""

from __future__ import annotations

import base64
import binascii
import zoneinfo
from functools import cache
from urllib.parse import urlsplit

from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.forms import ResetPasswordForm as AllauthResetPasswordForm
from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from common.forms import Form, ModelForm, QuotedInput

from .models import User
from .names import clashes, name_key, reads_as_bot


@cache
def time_zone_choices() -> list[tuple[str, str]]:
    zones = sorted(z for z in zoneinfo.available_timezones() if "/" in z or z == "UTC")
    return [(z, z.replace("_", " ")) for z in zones]


class SettingsForm(ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("The one my browser asks for")), *settings.LANGUAGES],
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        choices=lambda: [("", _("The one my browser uses")), *time_zone_choices()],
        help_text=_("Times on the site are shown in this zone."),
    )

    class Meta:
        model = User
        fields = [
            "display_name",
            "language",
            "time_zone",
            "email_turn",
            "email_reminders",
            "email_invitations",
            "email_game_over",
            "push_turn",
            "push_reminders",
            "push_invitations",
            "push_game_over",
            "email_with_push",
            "sound",
            "play_forced_cards",
            "chat_hidden",
        ]
        widgets = {"email_turn": forms.RadioSelect}

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def save(self, commit=True):
        if {"time_zone", "email_turn"} & set(self.changed_data):
            self.instance.next_digest_at = None  # the sweep schedules the next one anew
        return super().save(commit)

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            return name
        if reads_as_bot(name):
            raise forms.ValidationError(_("Only the bots are called bots."), code="bot_name")
        if not name_key(name):
            raise forms.ValidationError(_("A name needs a letter or a digit."), code="no_letter")
        if clashes(name, exclude_user_id=self.instance.pk):
            raise forms.ValidationError(
                _("This name reads like another player's name: choose one that stands apart."),
                code="clash",
            )
        return name


class DeleteAccountForm(Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user: User, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user
        if not user.has_usable_password():
            # Nothing to check (e.g. an account made by an admin without one).
            del self.fields["password"]

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="wrong_password")
        return password


class LoginForm(QuotedInput, AllauthLoginForm):
    """allauth's form, its first field labelled with what it takes."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["login"].label = _("Username or email")
        self.fields["login"].widget.attrs.pop("placeholder", None)
        self.fields["login"].widget.attrs["autocomplete"] = "username"


class ResetPasswordForm(QuotedInput, AllauthResetPasswordForm):
    """allauth's form, except that a bot never gets a reset link (even with an email address):
    it is answered as an address with no account."""

    def clean_email(self) -> str:
        email = super().clean_email()
        self.users = [user for user in self.users if not user.is_site_bot]
        return email


# The push services of the browsers that take Web Push (Chrome, Edge, Firefox, Safari). The
# site sends to a subscription's endpoint: only these hosts, over HTTPS, so that an endpoint
# made up by hand can never make the site call an address of its own network.
PUSH_SERVICES = (
    "fcm.googleapis.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
)


def _key(value: str, size: int, first: bytes = b"") -> bytes | None:
    """The bytes of a base64url key (padding optional), if it has ``size`` of them."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (ValueError, binascii.Error):
        return None
    return raw if len(raw) == size and raw.startswith(first) else None


class PushSubscriptionForm(Form):
    """A browser's ``PushSubscription.toJSON()``, as the settings page sends it."""

    endpoint = forms.URLField(max_length=2000, assume_scheme="https")
    p256dh = forms.CharField(max_length=100)
    auth = forms.CharField(max_length=50)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        parts = urlsplit(endpoint)
        host = (parts.hostname or "").lower()
        known = any(host == s or host.endswith("." + s) for s in PUSH_SERVICES)
        if parts.scheme != "https" or not known:
            raise forms.ValidationError(_("This browser's push service is not one we know."))
        return endpoint

    def clean_p256dh(self) -> str:
        value = self.cleaned_data["p256dh"]
        if _key(value, 65, b"\x04") is None:
            raise forms.ValidationError(_("This is not a browser's push key."))
        return value

    def clean_auth(self) -> str:
        value = self.cleaned_data["auth"]
        if _key(value, 16) is None:
            raise forms.ValidationError(_("This is not a browser's push key."))
        return value


BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"))
SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def browser_name(user_agent: str) -> str:
    """ "Firefox · Android": enough for a player to tell their devices apart in the list; no
    words, as it is stored and shown in any language ("" when the User-Agent says nothing)."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), "")
    if not browser and "Safari/" in user_agent:
        browser = "Safari"
    system = next((name for mark, name in SYSTEMS if mark in user_agent), "")
    return " · ".join(part for part in (browser, system) if part)
