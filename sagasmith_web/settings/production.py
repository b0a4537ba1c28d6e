"""Hosted settings: refuse to start without the secrets and services production needs."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, REDIS_URL, SAGASMITH_DELEGATION_LIFETIME, env

DEBUG = False
SAGASMITH_PRODUCTION = True  # what refuses demo data and local shortcuts
SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="")
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=[])

_problems = []
if len(SECRET_KEY) < 32:
    _problems.append("DJANGO_SECRET_KEY must be set to at least 32 characters")
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    _problems.append("DATABASE_URL must point at PostgreSQL")
if not REDIS_URL:
    _problems.append("REDIS_URL must be set")
if not ALLOWED_HOSTS:
    _problems.append("DJANGO_ALLOWED_HOSTS must list the public host names")
_private_keys = env.str("SAGASMITH_DELEGATION_PRIVATE_KEYS", default="")
if not _private_keys:
    _problems.append("SAGASMITH_DELEGATION_PRIVATE_KEYS must list the delegation signing keys")
else:
    from apps.domains.keys import private_keys_check

    try:
        private_keys_check(_private_keys)
    except ImproperlyConfigured as exc:
        _problems.append(str(exc))
# apps.domains.client.MAX_LIFETIME, which cannot be imported before the apps are ready. Out of
# range, every domain call would fail at run time (a ValueError, a 500) instead.
_MAX_DELEGATION_LIFETIME = 300
if not 1 <= SAGASMITH_DELEGATION_LIFETIME <= _MAX_DELEGATION_LIFETIME:
    _problems.append(
        f"SAGASMITH_DELEGATION_LIFETIME must be 1..{_MAX_DELEGATION_LIFETIME} seconds (the most "
        f"a delegation token may live), not {SAGASMITH_DELEGATION_LIFETIME}"
    )
if _problems:
    raise ImproperlyConfigured("Production settings refused: " + "; ".join(_problems))

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
EMAIL_BACKEND = env.str(
    "DJANGO_EMAIL_BACKEND", default="django.core.mail.backends.smtp.EmailBackend"
)
ACCOUNT_EMAIL_VERIFICATION = env.str("SAGASMITH_EMAIL_VERIFICATION", default="mandatory")
