from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in

        from nyet_site.middleware import record_login

        user_logged_in.connect(record_login, dispatch_uid="nyet.record_login")
