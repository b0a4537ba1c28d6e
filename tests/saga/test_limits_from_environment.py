"""An operator sets the Saga's limits from the environment, like the product's other settings."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = (
    "import django; django.setup(); "
    "from apps.saga import services, mcp_http; from django.conf import settings; "
    "print(services.max_artifact_bytes(), services.max_total_artifact_bytes(), "
    "settings.SAGASMITH_SAGA_MAX_ACTIVE_PER_USER, mcp_http.max_request_body_bytes(), "
    "mcp_http.body_timeout_seconds())"
)


def _read(extra_env) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAGASMITH_SAGA_")}
    env.update({"DJANGO_SETTINGS_MODULE": "sagasmith_web.settings.test", **extra_env})
    done = subprocess.run(
        [sys.executable, "-c", READ], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.strip()


def test_the_saga_limits_default_when_the_environment_sets_none():
    assert _read({}) == "1048576 20971520 20 46137344 30.0"


def test_the_saga_limits_are_read_from_the_environment():
    assert (
        _read(
            {
                "SAGASMITH_SAGA_MAX_ARTIFACT_BYTES": "2048",
                "SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES": "65536",
                "SAGASMITH_SAGA_MAX_ACTIVE_PER_USER": "3",
                "SAGASMITH_SAGA_MAX_REQUEST_BYTES": "500000",
                "SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS": "12.5",
            }
        )
        == "2048 65536 3 500000 12.5"
    )


def _refused(extra_env) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SAGASMITH_")}
    env.update({"DJANGO_SETTINGS_MODULE": "sagasmith_web.settings.test", **extra_env})
    done = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=env,
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    return done.stderr.strip().splitlines()[-1]


def test_a_limit_of_zero_or_less_refuses_to_start():
    assert _refused({"SAGASMITH_MAX_REQUEST_BYTES": "0"}) == (
        "django.core.exceptions.ImproperlyConfigured: SAGASMITH_MAX_REQUEST_BYTES must be greater "
        "than 0."
    )
    assert _refused({"SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS": "-1"}) == (
        "django.core.exceptions.ImproperlyConfigured: SAGASMITH_SAGA_BODY_TIMEOUT_SECONDS must be "
        "greater than 0."
    )
    assert _refused({"SAGASMITH_SAGA_MAX_REQUEST_BYTES": "0"}) == (
        "django.core.exceptions.ImproperlyConfigured: SAGASMITH_SAGA_MAX_REQUEST_BYTES must be "
        "greater than 0."
    )
