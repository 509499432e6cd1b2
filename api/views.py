"""The settings page's API tokens: made (shown once), listed, revoked."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from common.forms import Form
from games import lookups
from games.actions import ActionError, become_bot_account
from games.forms import first_error
from games.forms.table import ConfirmForm

from .models import Scope
from .tokens import create_token, live_tokens, revoke_token


class TokenForm(Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=60)
    scopes = forms.MultipleChoiceField(
        label=gettext_lazy("Scopes"),
        choices=Scope.choices,
        widget=forms.CheckboxSelectMultiple,
        initial=[Scope.READ, Scope.PLAY],
    )


class RevokeForm(Form):
    token = forms.IntegerField(min_value=1, max_value=2**63 - 1)


@login_required
def tokens(request: HttpRequest) -> HttpResponse:
    form = TokenForm()
    made: str | None = None
    if request.method == "POST":
        try:
            if "bot_account" in request.POST:
                if not ConfirmForm(request.POST).is_valid():
                    raise ActionError(
                        _("Nothing was done: confirm with the “Yes” button."), code="confirm"
                    )
                become_bot_account(request.user)
                messages.success(
                    request, _("This is now a bot account: it plays through the API only.")
                )
                return redirect("api_tokens")
            if "revoke" in request.POST:
                revoking = RevokeForm(request.POST)
                if not revoking.is_valid():
                    raise ActionError(first_error(revoking), code="malformed")
                revoke_token(request.user, revoking.cleaned_data["token"])
                messages.success(request, _("The token is revoked: it no longer works."))
                return redirect("api_tokens")
            form = TokenForm(request.POST)
            if not form.is_valid():
                raise ActionError(first_error(form), code="malformed")
            token, made = create_token(
                request.user, form.cleaned_data["name"], form.cleaned_data["scopes"]
            )
            form = TokenForm()
        except ActionError as error:
            messages.error(request, error.message)
    live = live_tokens(request.user)
    context = {"form": form, "made": made, "tokens": live}
    if not request.user.bot_account:
        context["has_played"] = lookups.has_played(request.user)
    return render(request, "api/tokens.html", context)
