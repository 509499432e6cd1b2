"""Settings for Nyet! online, all read from environment variables.

Development needs none of them: SQLite in db.sqlite3, DEBUG on, and a SQLite file as Celery's
broker. With NYET_ENV=production the site refuses to start on the development SECRET_KEY or with
DEBUG on. README.md lists every variable.
"""

import os
from datetime import timedelta
from email.utils import parseaddr
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

from nyet_site.environment import env_bool, env_list, env_number, env_vapid_keys

BASE_DIR = Path(__file__).resolve().parent.parent


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
    "ninja",  # its documentation page's scripts, served from our own static files
    "api",
]

MIDDLEWARE = [
    # First: a load balancer's check never meets the host check or the redirect to HTTPS.
    "nyet_site.observability.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "nyet_site.observability.RequestLogMiddleware",
    "csp.middleware.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Before anything reads the session or a form: no NUL byte, no over-long value goes further.
    "common.input_guard.InputGuardMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.PreferencesMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "games.last_seen.LastSeenMiddleware",
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
else:
    # PostgreSQL: each process holds at most DATABASE_POOL_SIZE connections, whatever its server
    # does with threads (persistent connections, one per thread, ran a busy development server
    # out of connections). A request waits up to DATABASE_POOL_TIMEOUT seconds for a free one and
    # gives it back when it ends. A pool takes no persistent connections of Django's own.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 1,
        "max_size": env_number("DATABASE_POOL_SIZE", 10),
        "timeout": env_number("DATABASE_POOL_TIMEOUT", 30.0, float),
    }
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
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")  # collectstatic
# WhiteNoise serves the static files from the web processes: in production compressed, under
# names that change with their content (so browsers may keep them ten years), from STATIC_ROOT
# (`make build` runs collectstatic); in development from the source folders.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# Source maps are two thirds of the bytes (django-ninja's API documentation bundles) and only a
# developer's tools fetch them: compressing them made collectstatic take minutes.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "map"]
# Every page asks for the hashed names ({% static %}): the originals need no copy, nor compressing.
WHITENOISE_KEEP_ONLY_HASHED_FILES = True
if PRODUCTION:  # in development the site serves its own (nyet_site/asgi.py)
    MIDDLEWARE.insert(2, "whitenoise.middleware.WhiteNoiseMiddleware")  # after SecurityMiddleware

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
# A broker that cannot be reached must not hold up a move: publishing tries to connect once and
# gives up (a tenth of a second with Redis down), the failure is logged (games.queue, which then
# stops trying for a few seconds), and the sweep queues the stalled work again. Without
# max_retries=0, kombu tries again after sleeping, about 2 seconds in all whatever the timeouts
# (tests/games/test_outage.py); both transports accept it (SQLAlchemy's drops it).
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_CONNECTION_TIMEOUT = 0.5
CELERY_BROKER_TRANSPORT_OPTIONS = {"max_retries": 0}
if CELERY_BROKER_URL.startswith(("redis://", "rediss://")):  # SQLAlchemy takes no such options
    CELERY_BROKER_TRANSPORT_OPTIONS |= {"socket_connect_timeout": 0.5, "socket_timeout": 2}
# One queue per kind of work (games.queue), so that a slow mail server or a heap of work found
# by the sweep never delays a bot's reply to a player: production runs a worker for `play`
# apart from the others (Procfile). The Expert bot's seconds-long moves (correspondence tables)
# have their own queue and worker, `think`, so that they never hold up `play` or `catchup`.
CELERY_TASK_DEFAULT_QUEUE = "play"
CELERY_TASK_ROUTES = {
    "games.tasks.play_bots": {"queue": "play"},
    "games.tasks.think": {"queue": "think"},
    "games.tasks.play_timeouts": {"queue": "catchup"},
    "games.tasks.send_email": {"queue": "email"},
    "games.tasks.sweep": {"queue": "sweep"},
    "games.tasks.check_recent_records": {"queue": "sweep"},
    "games.tasks.check_records_of": {"queue": "sweep"},
}
CELERY_TASK_ACKS_LATE = True  # a worker that dies mid-task leaves its task to another
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A worker outlives a lost broker: it tries again every second (nyet_site/worker.py; Celery's
# own waits grow to 30 s), for as long as it takes (Celery's default gives up after 100 tries,
# and the worker exits), also when it starts before the broker. Its running tasks finish: each
# is a short slice that is safe to run twice, so the ack lost with the connection costs at most
# a copy that does nothing, and a cancel would be a SIGTERM, which the pool processes ignore
# (nyet_site/celery.py). tests/games/test_worker_reconnects.py, benchmarks/outage.py.
CELERY_BROKER_CONNECTION_RETRY = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_WORKER_CONSUMER = "nyet_site.worker:Consumer"
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = False
# A plain beat schedule, not django-celery-beat: fixed periodic jobs, nothing to edit at run
# time. Deadlines (and each player's 07:00 digest) live in the database; the sweep finds them.
# Every hour, the games finished lately are compared with the replay of their move log.
# SWEEP_SECONDS: the sweep's period (a test of the production processes waits seconds, not one).
CELERY_BEAT_SCHEDULE = {
    "sweep": {
        "task": "games.tasks.sweep",
        "schedule": env_number("SWEEP_SECONDS", 60.0, float),
    },
    "records": {"task": "games.tasks.check_recent_records", "schedule": 3600.0},
}

LOGIN_REDIRECT_URL = "lobby"

# Between two bot moves in a row, so that a person can follow the cards (0 in the tests).
BOT_PAUSE_SECONDS = float(os.environ.get("BOT_PAUSE_SECONDS", "0.6"))

# The Hard bot's time budget per move, in seconds (it stops sooner once it has searched its deals).
HARD_BOT_SECONDS = float(os.environ.get("HARD_BOT_SECONDS", "0.5"))
# The Expert bot's longest time per move (correspondence tables only, in the `think` workers):
# it stops at its deals (hard.Expert) or then, whichever comes first.
EXPERT_BOT_SECONDS = env_number("EXPERT_BOT_SECONDS", 5.0, float, minimum=0)

# A table whose open seats are still empty this long after it was made expires (the sweep).
TABLE_EXPIRES_AFTER = timedelta(hours=env_number("TABLE_EXPIRES_HOURS", 7 * 24))

# Email: printed to the console in development; SMTP when EMAIL_HOST is set. The links in them
# start with SITE_URL: `make run` sets it from its PORT (Makefile), not from each process's own
# PORT, which honcho sets apart for each (the worker's is not the site's).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")
if PRODUCTION and not (
    SITE_URL.startswith("https://") and "127.0.0.1" not in SITE_URL and "localhost" not in SITE_URL
):
    # Every email's links and its one-click unsubscribe (RFC 8058: HTTPS only) use it.
    raise ImproperlyConfigured("NYET_ENV=production needs SITE_URL, the site's https:// address.")
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

# Web Push (games/push.py): the site's application server key pair (VAPID, RFC 8292), base64url
# without padding, as browsers and the Push API take it: VAPID_PUBLIC_KEY the uncompressed P-256
# point (65 bytes, given to the browser when it subscribes), VAPID_PRIVATE_KEY its 32-byte
# private number (the raw scalar, not PEM). `manage.py vapid_keys` makes a pair. Unset in
# development: the pair in VAPID_DEV_FILE (git-ignored), which `make run` writes when it is
# missing. A browser's subscription belongs to the public key it was made with: a new pair
# leaves every browser to subscribe again. VAPID_SUBJECT: how a push service reaches whoever
# runs the site (mailto: or https:). `manage.py check --deploy` warns when production has no
# pair, or one that does not match. PUSH_TIMEOUT: seconds to connect to a push service, and
# then for its answer.
VAPID_DEV_FILE = BASE_DIR / "vapid-keys.json"
VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY = env_vapid_keys(VAPID_DEV_FILE, PRODUCTION)
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT") or f"mailto:{parseaddr(DEFAULT_FROM_EMAIL)[1]}"
PUSH_TIMEOUT = 5.0

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
# Logging in with a one-time code sent by email, instead of the password: open to all, and the
# only way in from a new browser to an account under attack (accounts.login_guard).
ACCOUNT_LOGIN_BY_CODE_ENABLED = True
# Redis, when set: the broker (unless CELERY_BROKER_URL says otherwise), the cache, and the
# pub/sub that pushes each move to the open game pages at once (games/live). Without it the
# pages hear of moves by reading the database a few times a second.
REDIS_URL = os.environ.get("REDIS_URL", "")

# allauth's limits, per address ("ip") and per login name or email ("key"), counted in the
# default cache. Failed logins are not allauth's to limit (an empty rate: no limit): its limit
# per name would let anyone lock a player out from elsewhere. The site limits them per address
# and per name *from that address* (accounts.failed_logins), and failures on one account from
# many addresses make it take a code from new browsers (accounts.login_guard). The others are
# allauth's defaults, or stricter where an attempt sends someone an email. A login code is
# limited per address only: allauth's limit per email address would let anyone stop its owner
# from getting one.
ACCOUNT_RATE_LIMITS = {
    "login": "30/m/ip",
    "login_failed": "",
    "signup": "5/m/ip,30/h/ip",
    "reset_password": "5/m/ip,30/h/ip,5/h/key",
    "reset_password_from_key": "20/m/ip",
    "request_login_code": "5/m/ip,20/h/ip",
}
# The visitor's address, for allauth's limits and the site's own (games/limits.py) alike: the
# connection's, or behind N trusted reverse proxies the Nth address from the right of
# X-Forwarded-For.
ALLAUTH_TRUSTED_PROXY_COUNT = env_number("TRUSTED_PROXY_COUNT", 0, minimum=0)
# The site's own limits (games/limits.py, django-ratelimit, which is used as a library: its app
# only adds checks that count a cache without Redis as an error). Off only where tests say so.
RATELIMIT_ENABLE = env_bool("RATELIMIT_ENABLE", default=True)
# allauth's own rate limits (the defaults of ACCOUNT_RATE_LIMITS) guard login, sign-up and
# password reset. They count in the cache, which every web process must share in production:
# Redis when REDIS_URL is set, with this process's memory standing in while Redis is away
# (common/cache.py), so that a cache outage never stops a login.
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "common.cache.ResilientRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "OPTIONS": {"socket_connect_timeout": 0.25, "socket_timeout": 0.5},
        }
    }

# --- Production: HTTPS, logging, error reports ---------------------------------------------------
# The site sits behind a proxy or load balancer that ends TLS and says so in X-Forwarded-Proto
# (BEHIND_PROXY=false when it serves HTTPS itself).
if env_bool("BEHIND_PROXY", default=PRODUCTION):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = PRODUCTION
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if PRODUCTION else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = PRODUCTION
SECURE_HSTS_PRELOAD = PRODUCTION
SECURE_REFERRER_POLICY = "same-origin"
# Only the site's own files run or style a page: no inline script, style or event handler, no
# eval (htmx's allowEval is off in base.html), nothing from another origin. On in development
# too, so that the browser tests meet the policy production sends.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
# No script reads it (so the browser tests prove it): htmx sends the token from the page
# (hx-headers in base.html), the API documentation page from its data attributes.
CSRF_COOKIE_HTTPONLY = True
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
if PRODUCTION:
    CSRF_TRUSTED_ORIGINS = [SITE_URL.rstrip("/")]

# One line per request and per task on stdout (nyet_site/observability.py), for the platform's
# log collector; errors with their traceback.
LOG_LEVEL = os.environ.get("LOG_LEVEL", "INFO")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "line": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "line",
        },
    },
    "root": {"handlers": ["stdout"], "level": "WARNING"},
    "loggers": {
        "nyet": {"level": LOG_LEVEL},
        "games": {"level": LOG_LEVEL},
        "accounts": {"level": LOG_LEVEL},
        "nyet_site": {"level": LOG_LEVEL},
        "common": {"level": LOG_LEVEL},
        "django": {"level": "WARNING"},
    },
}

# Error reports, when SENTRY_DSN is set: exceptions of the web processes and the workers.
if os.environ.get("SENTRY_DSN"):
    import sentry_sdk

    sentry_sdk.init(
        dsn=os.environ["SENTRY_DSN"],
        environment=NYET_ENV,
        send_default_pii=False,
        traces_sample_rate=0.0,
    )
