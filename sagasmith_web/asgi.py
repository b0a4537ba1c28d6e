"""ASGI entry point: Django HTTP, Channels websockets and the Saga MCP endpoint."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sagasmith_web.settings.local")

from django.core.asgi import get_asgi_application  # noqa: E402

django_asgi = get_asgi_application()

from sagasmith_web.routing import build_application  # noqa: E402

application = build_application(django_asgi)
