"""Authentication: allauth's backend (a username or an email address, and a password), which
never lets a bot in, whatever password it may have been given."""

from allauth.account.auth_backends import AuthenticationBackend


class PersonBackend(AuthenticationBackend):
    def user_can_authenticate(self, user) -> bool:
        return super().user_can_authenticate(user) and not getattr(user, "is_site_bot", False)
