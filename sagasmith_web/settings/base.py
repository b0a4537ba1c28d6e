"""Settings shared by every environment; everything that differs comes from the environment."""

from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(environ.Env().str("SAGASMITH_VAR_DIR", default=str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

env = environ.Env()

SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
DEBUG = env.bool("DJANGO_DEBUG", default=False)
SAGASMITH_PRODUCTION = False  # production.py sets it
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # First: its changepassword command replaces Django's (commands of earlier apps win).
    "apps.accounts",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "allauth",
    "allauth.account",
    "apps.core",
    "apps.domains",
    "apps.campaigns",
    "apps.rooms",
    "apps.projections",
    "apps.turns",
    "apps.quota",
    "apps.saga",
]

MIDDLEWARE = [
    "apps.core.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.core.middleware.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.core.middleware.SignedInNeverStoredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "apps.accounts.middleware.UserSessionMiddleware",
    "apps.accounts.middleware.LegalAcceptanceMiddleware",
    # Innermost: its page still passes through the security headers and cookies above.
    "apps.core.middleware.NotAllowedPageMiddleware",
]

# Scripts and styles only from this site (no inline code or handlers: templates/ keeps to it);
# 'self' covers the room's same-origin websocket. data: images are the API docs' icons.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)

# Any HTTP request's body, read before Django sees it (sagasmith_web.routing.WholeRequestFirst):
# larger is refused 413, slower to arrive than this is refused 408. No view takes uploads.
SAGASMITH_MAX_REQUEST_BYTES = env.int("SAGASMITH_MAX_REQUEST_BYTES", default=10 * 1024 * 1024)
SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS = env.float(
    "SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS", default=30.0
)

# The Saga harness's limits (apps.saga: README). Its request body limit, unless set, follows
# from the artifact limits (apps.saga.mcp_http.max_request_body_bytes).
SAGASMITH_SAGA_MAX_ARTIFACT_BYTES = env.int("SAGASMITH_SAGA_MAX_ARTIFACT_BYTES", default=1 << 20)
SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES = env.int(
    "SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES", default=20 << 20
)
SAGASMITH_SAGA_MAX_ACTIVE_PER_USER = env.int("SAGASMITH_SAGA_MAX_ACTIVE_PER_USER", default=20)
SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS = env.float("SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS", default=30.0)
if "SAGASMITH_SAGA_MAX_REQUEST_BYTES" in env:
    SAGASMITH_SAGA_MAX_REQUEST_BYTES = env.int("SAGASMITH_SAGA_MAX_REQUEST_BYTES")
for _limit_name in (
    "SAGASMITH_MAX_REQUEST_BYTES", "SAGASMITH_REQUEST_BODY_TIMEOUT_SECONDS",
    "SAGASMITH_SAGA_MAX_ARTIFACT_BYTES", "SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES",
    "SAGASMITH_SAGA_MAX_ACTIVE_PER_USER", "SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS",
    "SAGASMITH_SAGA_MAX_REQUEST_BYTES",
):  # fmt: skip
    # Zero or less would refuse every request (or saga): a typo, not a policy.
    if _limit_name in globals() and not globals()[_limit_name] > 0:
        raise ImproperlyConfigured(f"{_limit_name} must be greater than 0.")

ROOT_URLCONF = "sagasmith_web.urls"
ASGI_APPLICATION = "sagasmith_web.asgi.application"
# Threads serving HTTP views in each web process (websockets run on its event loop). Keep it
# under DATABASE_POOL_MAX: the sockets' own queries share that pool.
WEB_HTTP_THREADS = env.int("WEB_HTTP_THREADS", default=16)
WSGI_APPLICATION = None

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
                "apps.core.context_processors.site",
            ],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'sagasmith.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL plus a busy timeout lets the web process and the worker share the file.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
else:
    # A process-wide pool shared by every thread of a process (HTTP threads, the sockets'
    # database calls, worker threads), sized apart from the thread counts.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Parameters travel apart from the SQL: no client-side quoting of large JSON payloads.
    DATABASES["default"].setdefault("OPTIONS", {})["server_side_binding"] = True
    # The pool keeps each connection, so a statement run a few times on it is parsed and
    # planned once (psycopg's automatic preparation; Django turns it off by default for the
    # sake of transaction-mode poolers, which this deployment does not put in between).
    if env.bool("DATABASE_PREPARED_STATEMENTS", default=True):
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 5
    DATABASES["default"]["OPTIONS"]["pool"] = {
        "min_size": env.int("DATABASE_POOL_MIN", default=2),
        "max_size": env.int("DATABASE_POOL_MAX", default=20),
        "timeout": env.float("DATABASE_POOL_TIMEOUT", default=10.0),
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"
SITE_ID = 1

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True
# Dates and times in one style on every page and in emails (sagasmith_web/formats/).
FORMAT_MODULE_PATH = ["sagasmith_web.formats"]

STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
MEDIA_ROOT = VAR_DIR / "media"

# --- Redis or embedded equivalents -----------------------------------------------------------
REDIS_URL = env.str("REDIS_URL", default="")

if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "sagasmith",
            # One pool per process: cache handles are per thread, and ASGI requests get threads.
            "OPTIONS": {"pool_class": "apps.core.redis_pool.SharedConnectionPool"},
        }
    }
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: a group send is one PUBLISH, and each process fans it out to its own
            # sockets in memory, instead of one Redis message per socket. Delivery is
            # at-most-once, which rooms already assume: clients catch up by sequence.
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": REDIS_URL}], "prefix": "sagasmith"},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    # Durability lives in the database, not the broker: every task is periodic or a turn, whose
    # job row the recovery sweep re-enqueues when its message is lost or its lease expires. The
    # broker's emulated acks (two Redis pipelines per task, redelivery after an hour) add
    # nothing but cost, so they are off.
    CELERY_BROKER_TRANSPORT_OPTIONS: dict = {"ack_emulation": False}
else:
    # A file cache is shared by every local process (web, worker) without a server.
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    _broker_dir = VAR_DIR / "broker"
    (_broker_dir / "queue").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "processed").mkdir(parents=True, exist_ok=True)
    (_broker_dir / "control").mkdir(parents=True, exist_ok=True)
    # The file transport has no host; naming one keeps kombu from warning that it picked one.
    CELERY_BROKER_URL = "filesystem://localhost/"
    # kombu's filesystem transport, with each message renamed into place once written whole.
    CELERY_BROKER_TRANSPORT = "apps.core.broker:Transport"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker_dir / "queue"),
        "data_folder_out": str(_broker_dir / "queue"),
        "processed_folder": str(_broker_dir / "processed"),
        "control_folder": str(_broker_dir / "control"),
        "store_processed": False,
        "polling_interval": 0.05,
    }

CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A turn waits on domain servers and model endpoints far longer than it computes: threads, not
# one process per CPU (and threads reuse pooled connections; prefork closes the pool per task).
# Keep concurrency x 2 (task + heartbeat) under DATABASE_POOL_MAX. -P and -c still override.
CELERY_WORKER_POOL = env.str("CELERY_WORKER_POOL", default="threads")
CELERY_WORKER_CONCURRENCY = env.int("CELERY_WORKER_CONCURRENCY", default=8)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
CELERY_BEAT_SCHEDULE: dict = {}
# The quota reaper never frees a reservation whose owning job is still alive.
SAGASMITH_QUOTA_OWNER_LIVENESS = {"room_turn": "apps.turns.selectors.room_turn_job_is_live"}
# What each kind of reservation was for, in words, on the usage page.
SAGASMITH_QUOTA_OWNER_USES = {"room_turn": "apps.turns.selectors.room_turn_uses"}
OUTBOX_POLL_INTERVAL = env.float("SAGASMITH_OUTBOX_POLL_INTERVAL", default=0.15)
ROOMS_HEARTBEAT_SECONDS = env.int("SAGASMITH_ROOMS_HEARTBEAT_SECONDS", default=20)
# Room turns (apps/turns/conf.py reads these; README "Hosted mode" says what each does).
SAGASMITH_TURN_LEASE_SECONDS = env.int("SAGASMITH_TURN_LEASE_SECONDS", default=60)
SAGASMITH_TURN_MAX_ATTEMPTS = env.int("SAGASMITH_TURN_MAX_ATTEMPTS", default=3)
SAGASMITH_TURN_ROOM_CONCURRENCY = env.int("SAGASMITH_TURN_ROOM_CONCURRENCY", default=4)
SAGASMITH_TURN_RESERVE_CREDITS = env.int("SAGASMITH_TURN_RESERVE_CREDITS", default=5)
SAGASMITH_TURN_RETRY_SECONDS = env.float("SAGASMITH_TURN_RETRY_SECONDS", default=2.0)
SAGASMITH_TURN_RETRY_MAX_SECONDS = env.float("SAGASMITH_TURN_RETRY_MAX_SECONDS", default=300.0)
SAGASMITH_TURN_PUBLISH_ATTEMPTS = env.int("SAGASMITH_TURN_PUBLISH_ATTEMPTS", default=8)
SAGASMITH_TURN_RUN_SECONDS = env.float("SAGASMITH_TURN_RUN_SECONDS", default=270.0)

# --- Sessions, security ----------------------------------------------------------------------
SESSION_ENGINE = "django.contrib.sessions.backends.db"
SESSION_COOKIE_NAME = "sagasmith_session"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30
CSRF_COOKIE_SAMESITE = "Lax"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
CSRF_FAILURE_VIEW = "apps.core.exceptions.csrf_failure"

# --- allauth ---------------------------------------------------------------------------------
ACCOUNT_ADAPTER = "apps.accounts.adapters.AccountAdapter"
ACCOUNT_USER_MODEL_USERNAME_FIELD = None
ACCOUNT_LOGIN_METHODS = {"email"}
ACCOUNT_SIGNUP_FIELDS = ["email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env.str("SAGASMITH_EMAIL_VERIFICATION", default="optional")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_SIGNUP_FORM_CLASS = "apps.accounts.signup_extra.SignupExtraForm"
ACCOUNT_FORMS = {
    "signup": "apps.accounts.forms.SignupForm",
    "login": "apps.accounts.forms.LoginForm",
    "change_password": "apps.accounts.forms.ChangePasswordForm",
    "reset_password_from_key": "apps.accounts.forms.ResetPasswordKeyForm",
}
ACCOUNT_LOGOUT_ON_PASSWORD_CHANGE = False
# The account's owner hears of a password changed or reset (someone else may have done it).
ACCOUNT_EMAIL_NOTIFICATIONS = True
ACCOUNT_LOGIN_ON_PASSWORD_RESET = False
ACCOUNT_RATE_LIMITS = {"login_failed": "10/m/ip,5/5m/key"}
LOGIN_REDIRECT_URL = "/"
ACCOUNT_LOGOUT_REDIRECT_URL = "/accounts/login/"
LOGIN_URL = "/accounts/login/"
EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.console.EmailBackend"
)
DEFAULT_FROM_EMAIL = env.str("DJANGO_DEFAULT_FROM_EMAIL", default="SagaSmith <noreply@localhost>")

# --- Product settings ------------------------------------------------------------------------
SAGASMITH_REGISTRATION_MODE = env.str("SAGASMITH_REGISTRATION_MODE", default="invite")
SAGASMITH_TERMS_VERSION = env.str("SAGASMITH_TERMS_VERSION", default="2026-12-01")
SAGASMITH_PRIVACY_VERSION = env.str("SAGASMITH_PRIVACY_VERSION", default="2026-12-01")
SAGASMITH_SITE_NAME = "SagaSmith"
# Domain servers checked by /api/ready: system_id -> target (filled by the domains app).
SAGASMITH_DOMAINS: dict = env.json("SAGASMITH_DOMAINS", default={})
SAGASMITH_DELEGATION_ISSUER = env.str("SAGASMITH_DELEGATION_ISSUER", default="sagasmith-web")
try:
    SAGASMITH_DELEGATION_LIFETIME = env.int("SAGASMITH_DELEGATION_LIFETIME", default=60)  # <= 300
except ValueError:
    raise ImproperlyConfigured(
        "SAGASMITH_DELEGATION_LIFETIME must be a whole number of seconds (1..300), not "
        f"{env.str('SAGASMITH_DELEGATION_LIFETIME')!r}"
    ) from None
SAGASMITH_DELEGATION_PRIVATE_KEYS = env.str("SAGASMITH_DELEGATION_PRIVATE_KEYS", default="")
SAGASMITH_DELEGATION_KEY_DIR = env.str(
    "SAGASMITH_DELEGATION_KEY_DIR", default=str(VAR_DIR / "keys")
)

# --- DRF -------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["apps.core.parsers.JSONParser"],
    # One renderer: a `?format=` query parameter is ignored, not a 404.
    "URL_FORMAT_OVERRIDE": None,
    "EXCEPTION_HANDLER": "apps.core.exceptions.api_exception_handler",
    # drf-spectacular's, plus the error envelope responses on every operation.
    "DEFAULT_SCHEMA_CLASS": "apps.core.schema.AutoSchema",
    "DEFAULT_THROTTLE_CLASSES": [
        "apps.core.throttling.UserRateThrottle",
        "apps.core.throttling.AnonRateThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "user": env.str("SAGASMITH_THROTTLE_USER", default="600/min"),
        "anon": env.str("SAGASMITH_THROTTLE_ANON", default="120/min"),
        # Posting to a room, chat and actions together (sign-in is limited by allauth).
        "messages": env.str("SAGASMITH_THROTTLE_MESSAGES", default="60/min"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "SagaSmith Web API",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs page's scripts are served from our static files, not a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # Views validate a PATCH body whole (no DRF partial updates), so its required fields stay
    # required in the schema instead of a "Patched" all-optional copy.
    "COMPONENT_SPLIT_PATCH": False,
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env.str("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        "django.request": {"level": "ERROR"},
        # Both log every MCP request at INFO.
        "httpx2": {"level": "WARNING"},
        "mcp": {"level": "WARNING"},
    },
}

# Periodic jobs, merged from the apps that own them.
from apps.projections.schedule import PROJECTIONS_BEAT_SCHEDULE  # noqa: E402
from apps.quota.schedule import QUOTA_BEAT_SCHEDULE  # noqa: E402
from apps.turns.schedule import TURNS_BEAT_SCHEDULE  # noqa: E402

CELERY_BEAT_SCHEDULE = {
    **CELERY_BEAT_SCHEDULE,
    **QUOTA_BEAT_SCHEDULE,
    **TURNS_BEAT_SCHEDULE,
    **PROJECTIONS_BEAT_SCHEDULE,
}
