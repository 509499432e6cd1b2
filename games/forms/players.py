"""A player's own forms: their vacation."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from common.forms import Form
from games.actions.vacations import VACATION_DAYS

VACATION_DAYS_AT_MOST = 366  # more than a year's allowance, less than any date overflow


class VacationForm(Form):
    DAYS = _("Choose a whole number of days, at least one.")

    action = forms.ChoiceField(required=False, choices=[("start", "start"), ("end", "end")])
    days = forms.IntegerField(
        required=False,
        min_value=1,
        max_value=VACATION_DAYS_AT_MOST,
        error_messages={"invalid": DAYS, "min_value": DAYS},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["days"].error_messages["max_value"] = _(
            "A vacation lasts at most %(days)s days a year."
        ) % {"days": VACATION_DAYS}

    def clean(self):
        data = super().clean()
        if data.get("action") != "end" and not self.errors and data.get("days") is None:
            raise ValidationError(self.DAYS, code="days")
        return data
