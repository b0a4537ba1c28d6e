"""Protocol routing. Kept apart from asgi.py so tests can build the same stack."""

from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from apps.rooms.routing import websocket_urlpatterns as room_websocket_urlpatterns

websocket_urlpatterns: list = [*room_websocket_urlpatterns]


class OutboxPollerLifespan:
    """Wrap an app's lifespan: after its startup, start the embedded outbox poller (only when
    the channel layer is in-memory); before its shutdown, stop it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        from apps.projections.dispatch import start_outbox_poller, stop_outbox_poller

        async def wrapped_receive():
            message = await receive()
            if message["type"] == "lifespan.shutdown":
                await stop_outbox_poller()
            return message

        async def wrapped_send(message):
            if message["type"] == "lifespan.startup.complete":
                start_outbox_poller()
            await send(message)

        return await self.app(scope, wrapped_receive, wrapped_send)


def build_application(django_asgi):
    from apps.accounts.middleware import WebsocketAuthMiddleware
    from apps.saga.mcp_http import mount_saga_mcp

    http_app = mount_saga_mcp(django_asgi)
    return ProtocolTypeRouter(
        {
            "http": http_app,
            "lifespan": OutboxPollerLifespan(http_app),
            "websocket": AllowedHostsOriginValidator(
                WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns))
            ),
        }
    )
