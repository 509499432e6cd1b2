from allauth.account import views as allauth_views
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("", include("games.urls")),
    # Django's names for these two, which pages and setup_demo still use.
    path("accounts/login/", account_views.login, name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("accounts/", include("allauth.urls")),
    path("", include("accounts.urls")),
    path("", include("api.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "games.views.answers.page_not_found"
# Not Django's (it has no 429 handler): allauth's, for its own limits.
handler429 = "accounts.views.too_many_attempts"
