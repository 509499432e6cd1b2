from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from allauth.account.signals import password_reset

        from . import failed_logins

        password_reset.connect(failed_logins.forget_after_reset, dispatch_uid="failed_logins")
