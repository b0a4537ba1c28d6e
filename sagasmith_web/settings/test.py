"""Test settings: fast hashing, console email, everything else as configured by the environment."""

import os
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# Under `pytest -n`, each worker ("gw0", "gw1", …) gets its own var directory (file cache,
# broker, keys, SQLite) and Redis database, so one worker's cache.clear() or queue never
# reaches another's; pytest-django already gives each worker its own test database.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
# Once per worker: the processes it starts inherit the result (or set their own var dir).
if XDIST_WORKER and os.environ.get("SAGASMITH_TEST_WORKER") != XDIST_WORKER:
    os.environ["SAGASMITH_TEST_WORKER"] = XDIST_WORKER
    _index = int(XDIST_WORKER.removeprefix("gw"))
    _var = Path(os.environ.get("SAGASMITH_VAR_DIR") or Path(__file__).resolve().parents[2] / "var")
    os.environ["SAGASMITH_VAR_DIR"] = str(_var / f"test-{XDIST_WORKER}")
    if _redis := os.environ.get("REDIS_URL"):
        _parts = urlsplit(_redis)
        _db = (int(_parts.path.strip("/") or 0) + _index) % 16
        os.environ["REDIS_URL"] = urlunsplit(_parts._replace(path=f"/{_db}"))

from .base import *  # noqa: E402, F403
from .base import CHANNEL_LAYERS, DATABASES, REST_FRAMEWORK, VAR_DIR  # noqa: E402

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
if XDIST_WORKER and "prefix" in CHANNEL_LAYERS["default"].get("CONFIG", {}):
    # Pub/sub channels are global to a Redis server, whatever the database number.
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"sagasmith-{XDIST_WORKER}"

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not shared-cache memory: threads and subprocesses (browser, MCP stdio tests)
    # then see the same database, and SQLite's busy timeout applies instead of table locks.
    # Named per process so parallel runs on one checkout do not share (and destroy) it.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}
else:
    # Race tests hold one connection per thread (20 at once) beside the test's own.
    DATABASES["default"]["OPTIONS"]["pool"]["max_size"] = 40
