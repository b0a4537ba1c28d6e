"""Test settings: fast hashing, console email, everything else as configured by the environment."""

import os

from .base import *  # noqa: F403
from .base import DATABASES, REST_FRAMEWORK, VAR_DIR

SECRET_KEY = "test-only-not-secret"  # noqa: S105
DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {
    **REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
    "user": "10000/min",
    "anon": "10000/min",
}
ACCOUNT_RATE_LIMITS = False
SAGASMITH_DELEGATION_PRIVATE_KEYS = ""  # a developer's shell variable must not leak in

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not shared-cache memory: threads and subprocesses (browser, MCP stdio tests)
    # then see the same database, and SQLite's busy timeout applies instead of table locks.
    # Named per process so parallel runs on one checkout do not share (and destroy) it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # Race tests hold one connection per thread (20 at once) beside the test's own.
    DATABASES["default"]["OPTIONS"]["pool"]["max_size"] = 40
