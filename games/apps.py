from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Register the tasks in every process (web ones too): the actions queue them by name.
        from accounts.actions import before_deletion
        from games import tasks  # noqa: F401
        from games.actions import release_seats

        # A deleted player's seats go to the stand-in bot: accounts do not import the actions.
        before_deletion("games.release_seats", release_seats)
