"""Errors raised by the domain client; each carries the API envelope's code, status and hint."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.core.errors import ApplicationError

# The contract's error codes (domain-contract.md "Errors") mapped to HTTP statuses. A phase
# refusal is a conflict with the campaign's current state, not a missing permission, so 409.
STATUS_BY_DOMAIN_CODE: dict[str, int] = {
    "authorization_denied": 403,
    "phase_denied": 409,
    "stale_revision": 409,
    "idempotency_conflict": 409,
    "invalid_request": 400,
    "not_found": 404,
    "needs_ruling": 409,
    "internal": 502,
}


class DomainError(ApplicationError):
    """A structured `isError` result from a domain server, keeping the domain's own code."""

    code = "domain_error"
    status = 502

    def __init__(
        self,
        message: str,
        *,
        domain_code: str,
        system_id: str,
        tool: str,
        retryable: bool,
        recovery: str,
    ) -> None:
        super().__init__(
            message,
            code=domain_code,
            # An unknown code is the server breaking the contract: an upstream fault.
            status=STATUS_BY_DOMAIN_CODE.get(domain_code, 502),
            retryable=retryable,
            recovery=recovery,
            details={"system_id": system_id, "tool": tool},
        )
        self.domain_code = domain_code
        self.system_id = system_id
        self.tool = tool


class DomainUnavailable(ApplicationError):
    """The domain server could not be reached, or dropped the connection mid-call."""

    code = "domain_unavailable"
    status = 503
    retryable = True
    # Read by people (a job's error, the room, pages): what they can do. API clients have
    # `retryable` and the Idempotency-Key header's documented replay for resending a write.
    recovery = str(_("Try again in a moment."))


class DomainTimeout(DomainUnavailable):
    """The domain server did not answer in time; the call may or may not have committed."""

    code = "domain_timeout"


class DomainProtocolError(ApplicationError):
    """The server answered with a JSON-RPC error or a result outside the contract."""

    code = "domain_protocol_error"
    status = 502
    retryable = False
    recovery = str(_("Report this to the operators; the domain server broke the contract."))


class UnknownSystem(ApplicationError):
    """No plugin is configured for this game system."""

    code = "unknown_system"
    status = 404
    recovery = str(_("Pick one of the game systems this site offers."))
