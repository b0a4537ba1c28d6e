"""Protocol routing. Kept apart from asgi.py so tests can build the same stack."""

from a2wsgi import WSGIMiddleware
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


def wsgi_over_asgi(django_wsgi):
    """Django's HTTP views, served from a fixed pool of threads.

    Every view is synchronous. Django's own ASGI handler starts a thread for each request and,
    with sync-only middleware in the chain, hops loop -> thread -> loop -> thread on the way in;
    served as WSGI, a request is one hand-off to a pooled thread that runs the whole chain.
    """
    from django.conf import settings

    return WSGIMiddleware(django_wsgi, workers=settings.WEB_HTTP_THREADS)


def build_application(django_http):
    from apps.accounts.middleware import WebsocketAuthMiddleware
    from apps.saga.mcp_http import mount_saga_mcp

    http_app = mount_saga_mcp(django_http)
    return ProtocolTypeRouter(
        {
            "http": http_app,
            "lifespan": OutboxPollerLifespan(http_app),
            "websocket": AllowedHostsOriginValidator(
                WebsocketAuthMiddleware(URLRouter(websocket_urlpatterns))
            ),
        }
    )
