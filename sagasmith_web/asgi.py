"""ASGI entry point: Django HTTP, Channels websockets and the Saga MCP endpoint."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sagasmith_web.settings.local")

from django.core.wsgi import get_wsgi_application  # noqa: E402

django_wsgi = get_wsgi_application()  # sets Django up before the routing imports models

from sagasmith_web.routing import build_application, wsgi_over_asgi  # noqa: E402

application = build_application(wsgi_over_asgi(django_wsgi))
