from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Register the tasks in every process (web ones too): the actions queue them by name;
        # and the system checks.
        from accounts.actions import before_deletion
        from games import checks, tasks  # noqa: F401
        from games.actions import release_seats

        # A deleted player's seats go to the stand-in bot: accounts do not import the actions.
        before_deletion("games.release_seats", release_seats)

        # The demo account finds a game waiting for it whenever it logs in (not in production).
        from django.contrib.auth.signals import user_logged_in

        from games.management.commands.setup_demo import demo_logged_in

        user_logged_in.connect(demo_logged_in, dispatch_uid="nyet.demo_logged_in")

        # Logging in is being on the site ("your turn" emails go only to players who are away).
        from games.last_seen import record_login

        user_logged_in.connect(record_login, dispatch_uid="nyet.record_login")
