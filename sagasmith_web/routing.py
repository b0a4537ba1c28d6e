"""Protocol routing. Kept apart from asgi.py so tests can build the same stack."""

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

websocket_urlpatterns: list = []


def build_application(django_asgi):
    from apps.saga.mcp_http import mount_saga_mcp

    http_app = mount_saga_mcp(django_asgi)
    return ProtocolTypeRouter(
        {
            "http": http_app,
            "lifespan": http_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
