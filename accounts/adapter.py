"""How allauth treats our users: bots (``User.bot_level``) never log in and never get a
password, no person may take a name that reads like a bot's or another player's
(``accounts.names``), and failed logins are counted per login name *and* address."""

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils.translation import gettext as _

from .names import BOT_PREFIX, clashes, reads_as_bot


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        username = super().clean_username(username, shallow=shallow)
        if username.lower().startswith(BOT_PREFIX):
            raise ValidationError(_("Names starting with “bot-” are kept for the bots."))
        if reads_as_bot(username):
            raise ValidationError(_("Only the bots are called bots."))
        if not shallow and clashes(username):
            raise ValidationError(
                _("This name reads like another player's name: choose one that stands apart.")
            )
        return username

    def _get_login_attempts_cache_key(self, request, **credentials):
        """allauth's ``login_failed`` limit ("5/5m/key") counts failures per key. Its key is the
        login name alone, so anyone could lock anyone out by failing on their name; ours is the
        login name from this address: failures from elsewhere never lock the owner out. The
        per-address limit ("10/m/ip") still stops one address from trying many names."""
        name = super()._get_login_attempts_cache_key(request, **credentials)
        return f"{name}@{self.get_client_ip(request)}"

    def pre_login(self, request, user, **kwargs):
        if user.is_bot:
            raise PermissionDenied(_("Bots cannot log in."))
        return super().pre_login(request, user, **kwargs)

    def set_password(self, user, password):
        if user.is_bot:
            raise PermissionDenied(_("Bots have no password."))
        super().set_password(user, password)
