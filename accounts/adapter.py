"""How allauth treats our users: bots (``User.bot_level``) never log in and never get a
password, and no person may take a name that looks like a bot's."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

BOT_PREFIX = "bot-"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(BOT_PREFIX):
            raise ValidationError(_("Names starting with “bot-” are kept for the bots."))
        return username

    def pre_login(self, request, user, **kwargs):
        if user.is_bot:
            raise PermissionDenied(_("Bots cannot log in."))
        return super().pre_login(request, user, **kwargs)

    def set_password(self, user, password):
        if user.is_bot:
            raise PermissionDenied(_("Bots have no password."))
        super().set_password(user, password)
