from django.contrib.auth.models import AbstractUser


class User(AbstractUser):
    """A player. Our own model from the first migration, so fields can be added later without
    swapping the user model under existing data."""
