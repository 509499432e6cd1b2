from django.urls import path

from . import challenges, stream, views
from .v1 import api

api.add_router("", challenges.router)  # before api.urls: the challenge flow's routes

urlpatterns = [
    path("api/v1/stream", stream.account_stream, name="api_account_stream"),
    path("api/v1/games/<int:game_id>/stream", stream.game_stream, name="api_game_stream"),
    path("api/v1/", api.urls),
    path("settings/tokens/", views.tokens, name="api_tokens"),
]
