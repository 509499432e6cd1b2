from django.conf import settings
from django.contrib.auth import get_user_model

from accounts.models import User


def test_the_user_model_is_ours():
    assert settings.AUTH_USER_MODEL == "accounts.User"
    assert get_user_model() is User


def test_a_player_can_sign_up(db):
    User.objects.create_user("anna", email="anna@example.org", password="a long passphrase")

    anna = User.objects.get(username="anna")
    assert anna.email == "anna@example.org"
    assert anna.check_password("a long passphrase")
    assert not anna.is_staff


def test_admins_see_players_in_the_admin(admin_client):
    User.objects.create_user("boris")

    response = admin_client.get("/admin/accounts/user/")

    assert response.status_code == 200
    assert "boris" in response.content.decode()
