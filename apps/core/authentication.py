"""API authentication: the browser session only; a bearer token is told where it belongs."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions as drf_exceptions
from rest_framework.authentication import BaseAuthentication

from .errors import ApplicationError

SAGA_MCP_PATH = "/mcp/saga"


class TokenNotAcceptedHere(ApplicationError, drf_exceptions.AuthenticationFailed):
    """401 for a bearer token sent to the API, in the project's envelope.

    Also an AuthenticationFailed, so DRF marks the request anonymous as for any failed
    authentication; api_exception_handler answers ApplicationErrors with code/status/recovery.
    """

    code = "token_not_accepted_here"
    status = 401
    recovery = (
        f"Call the API from a signed-in browser session, or send the token to {SAGA_MCP_PATH}."
    )


class PersonalTokenRefusal(BaseAuthentication):
    """After SessionAuthentication: a request that is not signed in but carries
    `Authorization: Bearer …` was meant to use a personal API token, which only the Saga MCP
    endpoint accepts. Say so instead of "credentials were not provided".

    No authenticate_header: the API has no challenge to offer (advertising Bearer here would
    invite clients to retry the token), so its 401s carry no WWW-Authenticate, as before.
    """

    def authenticate(self, request):
        scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and credentials.strip():
            raise TokenNotAcceptedHere(
                "Personal API tokens are accepted only by the Saga MCP endpoint "
                f"({SAGA_MCP_PATH}); the API uses your signed-in browser session.",
                details={"token_endpoint": SAGA_MCP_PATH},
            )
        return None


class PersonalTokenRefusalScheme(OpenApiAuthenticationExtension):
    """The schema lists no security scheme for it: it authenticates nobody."""

    target_class = PersonalTokenRefusal
    name: list[str] = []

    def get_security_requirement(self, auto_schema):
        return None

    def get_security_definition(self, auto_schema):
        return []
