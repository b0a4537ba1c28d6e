"""The current request id, readable from services, tasks and log records."""

from contextvars import ContextVar

current_request_id: ContextVar[str] = ContextVar("current_request_id", default="")
current_ip: ContextVar[str | None] = ContextVar("current_ip", default=None)
