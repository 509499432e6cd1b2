"""Forms for the account pages: settings, deleting an account, and allauth's password reset
made to ignore bots."""

from __future__ import annotations

import zoneinfo
from functools import cache

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
