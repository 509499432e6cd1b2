"""The base of every form of the site, the games' and the accounts' alike."""

from django import forms
from django.core.exceptions import ValidationError

from common.refusals import quote


class QuotedInput:
    """A form whose messages repeat at most a short prefix of what was sent (``quote``), its
    fields' included: Django's own (“Select a valid choice. … is not one of the available
    choices.”) would repeat the whole value. Every error of a form passes through
    ``add_error``, the model's and ``clean``'s too."""

    def add_error(self, field, error):
        if isinstance(error, ValidationError):
            for each in _every_error(error):
                if each.params and "value" in each.params:
                    each.params = {**each.params, "value": quote(each.params["value"])}
        super().add_error(field, error)


def _every_error(error: ValidationError):
    if hasattr(error, "error_dict"):
        for errors in error.error_dict.values():
            yield from errors
    else:
        yield from error.error_list


class Form(QuotedInput, forms.Form):
    """The base of every form of the site (``ModelForm`` for a model's)."""


class ModelForm(QuotedInput, forms.ModelForm):
    """The base of every model form of the site."""
