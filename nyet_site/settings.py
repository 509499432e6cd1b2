"""Settings for Nyet! online, all read from environment variables.

Development needs none of them: SQLite in db.sqlite3, DEBUG on, and a SQLite file as Celery's
broker. With NYET_ENV=production the site refuses to start on the development SECRET_KEY or with
DEBUG on. README.md lists every variable.
"""

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    return [item.strip() for item in value.split(",") if item.strip()] or default


NYET_ENV = os.environ.get("NYET_ENV", "development")
if NYET_ENV not in {"development", "production"}:
    raise ImproperlyConfigured(f"NYET_ENV must be development or production, not {NYET_ENV!r}.")
PRODUCTION = NYET_ENV == "production"

DEV_SECRET_KEY = "django-insecure-nyet-development-key-do-not-use-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or DEV_SECRET_KEY
DEBUG = env_bool("DEBUG", default=not PRODUCTION)

if PRODUCTION and SECRET_KEY == DEV_SECRET_KEY:
    raise ImproperlyConfigured("NYET_ENV=production needs a SECRET_KEY of its own.")
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("NYET_ENV=production refuses DEBUG on.")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "allauth",
    "allauth.account",
    "django_htmx",
    "template_partials",
    "accounts",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.PreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "nyet_site.middleware.LastSeenMiddleware",
]

ROOT_URLCONF = "nyet_site.urls"
WSGI_APPLICATION = "nyet_site.wsgi.application"
ASGI_APPLICATION = "nyet_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL unset or empty: SQLite next to manage.py; postgresql://user@host/name: PostgreSQL.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=600,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite ignores select_for_update: taking the write lock when a transaction begins keeps
    # moves one at a time when the site and the worker write at once.
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("fr", _("French"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = "UTC"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"  # filled by collectstatic, for production

# Celery reads every CELERY_* setting here (nyet_site/celery.py). Tasks go through a broker to a
# worker (`make run` starts one). With no broker configured, the broker is a SQLite file next to
# manage.py, through kombu's SQLAlchemy transport, so development needs no server to install.
# CELERY_TASK_ALWAYS_EAGER=true runs tasks in-process instead, with no worker: pytest sets it
# (pyproject.toml).
CELERY_BROKER_URL = (
    os.environ.get("CELERY_BROKER_URL")
    or os.environ.get("REDIS_URL")
    or f"sqla+sqlite:///{BASE_DIR / 'celery-broker.sqlite3'}"
)
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
# A broker that cannot be reached must not hold up a move: publishing fails fast, the failure is
# logged, and the sweep below queues the stalled work again.
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 2
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):  # SQLAlchemy takes no such options
    CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "socket_timeout": 5}
# A plain beat schedule, not django-celery-beat: the site has two fixed periodic jobs and no
# need to edit schedules at run time. Deadlines live in the database; the sweep finds what is due.
CELERY_BEAT_SCHEDULE = {
    "sweep": {"task": "games.tasks.sweep", "schedule": 60.0},
    "daily-digest": {
        "task": "games.tasks.daily_digest",
        "schedule": crontab(hour=7, minute=0),
    },
}

LOGIN_REDIRECT_URL = "lobby"

# The Hard bot's time budget per move, in seconds (it stops sooner once it has searched its deals).
HARD_BOT_SECONDS = float(os.environ.get("HARD_BOT_SECONDS", "0.5"))

# Email: printed to the console in development; SMTP when EMAIL_HOST is set.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Nyet! online <nyet@localhost>")
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "587"))
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    # A mail server that hangs must not hold a worker or the sweep: give up, try again later.
    EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "10"))
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"

# --- Accounts: django-allauth -------------------------------------------------------------------
# Sign up with an email and a username, log in with either. Bots (User.bot_level) have no usable
# password; the backend, the adapter and the password reset form refuse them all the same.
AUTHENTICATION_BACKENDS = ["accounts.backends.PersonBackend"]
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {
    "login": "accounts.forms.LoginForm",
    "reset_password": "accounts.forms.ResetPasswordForm",
}
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_UNIQUE_EMAIL = True
# Mandatory in production: an account logs in once its email is confirmed. Optional in
# development, where the link is printed to the console.
ACCOUNT_EMAIL_VERIFICATION = "mandatory" if PRODUCTION else "optional"
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Nyet!] "
ACCOUNT_USER_DISPLAY = "accounts.models.user_display"
# Where allauth sends a player after logging out (after logging in: LOGIN_REDIRECT_URL).
ACCOUNT_LOGOUT_REDIRECT_URL = "lobby"
# allauth's own rate limits (the defaults of ACCOUNT_RATE_LIMITS) guard login, sign-up and
# password reset. They count in the cache, which every web process must share in production:
# Redis when REDIS_URL is set.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
        }
    }
