"""Room turn services (writes), one module per concern."""

from apps.turns.services.jobs import (
    job_view,
    turn_action_submit,
    turn_cancel,
    turn_claim,
    turn_heartbeat,
)
from apps.turns.services.publish import turn_publish
from apps.turns.services.recovery import turn_recovery_sweep
from apps.turns.services.run import turn_run

__all__ = [
    "job_view",
    "turn_action_submit",
    "turn_cancel",
    "turn_claim",
    "turn_heartbeat",
    "turn_publish",
    "turn_recovery_sweep",
    "turn_run",
]
