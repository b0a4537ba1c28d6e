"""API authentication is the browser session only; a bearer token is told where it belongs."""

from __future__ import annotations

from .errors import ApplicationError

SAGA_MCP_PATH = "/mcp/saga"


class TokenNotAcceptedHere(ApplicationError):
    """401 for a bearer token sent to the API (its views take the browser session)."""

    code = "token_not_accepted_here"
    status = 401
    recovery = (
        f"Call the API from a signed-in browser session, or send the token to {SAGA_MCP_PATH}."
    )


def token_refusal_for(request) -> TokenNotAcceptedHere | None:
    """For a request the API refused as not signed in: when it carried
    `Authorization: Bearer …`, it meant to use a personal API token, which only the Saga MCP
    endpoint accepts; say so instead of "credentials were not provided". Asked only when a view
    needed a user, so endpoints open to everyone ignore the header."""
    scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not credentials.strip():
        return None
    return TokenNotAcceptedHere(
        "Personal API tokens are accepted only by the Saga MCP endpoint "
        f"({SAGA_MCP_PATH}); the API uses your signed-in browser session.",
        details={"token_endpoint": SAGA_MCP_PATH},
    )
