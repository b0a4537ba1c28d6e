"""Scripted settings with a small request limit, for the stdio message-limit tests."""

from tests.saga.settings_scripted import *  # noqa: F403

SAGASMITH_SAGA_MAX_REQUEST_BYTES = 4096
