from tests.rooms.conftest import _short_lived_connections  # noqa: F401 (autouse)
