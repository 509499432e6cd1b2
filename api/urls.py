from django.urls import path

from . import views
from .v1 import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("settings/tokens/", views.tokens, name="api_tokens"),
]
