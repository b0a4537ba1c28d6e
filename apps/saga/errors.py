"""Saga-specific errors; each names the problem and leaves state and events untouched."""

from apps.core.errors import Conflict, NotFound, ValidationFailed


class SagaNotFound(NotFound):
    code = "saga_not_found"
    recovery = "Check the sagaId; sagas are visible only to the user who started them."


class UnknownProfile(ValidationFailed):
    code = "unknown_profile"
    recovery = "Use one of: ops, research, curation, review, generic."


class InvalidPlan(ValidationFailed):
    code = "invalid_plan"
    recovery = "Revise the plan: '## Stage N: <title>' headings, a Goal: line and a yaml block."


class InvalidArtifact(ValidationFailed):
    code = "invalid_artifact"
    recovery = "Use a relative path without '..' and keep each artifact within the size limit."


class InvalidVerdict(ValidationFailed):
    code = "invalid_verdict"
    recovery = (
        "Send evalResult as {passed: bool, score: number|null, issues: [str], escalate: bool}."
    )


class InvalidInput(ValidationFailed):
    code = "invalid_input"


class SagaTerminated(Conflict):
    code = "saga_terminated"
    recovery = "Start a new saga."


class SagaStateConflict(Conflict):
    code = "saga_state_conflict"


class TooManyActiveSagas(Conflict):
    code = "too_many_active_sagas"
    recovery = "Finish or cancel one of your active sagas first."


class ArtifactsTooLarge(ValidationFailed):
    code = "artifacts_too_large"
    recovery = "Overwrite or shorten existing artifacts; each saga has a limit on their total size."
