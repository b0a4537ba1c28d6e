"""Beat tasks: thin wrappers around one service each (all idempotent)."""

from celery import shared_task

from . import services


@shared_task(name="quota.issue_periodic_grants", time_limit=600, soft_time_limit=540)
def quota_issue_periodic_grants_task() -> int:
    return services.quota_issue_periodic_grants()


@shared_task(name="quota.expire_grants", time_limit=120, soft_time_limit=100)
def quota_expire_grants_task() -> int:
    return services.quota_expire_grants()


@shared_task(name="quota.reap_expired", time_limit=120, soft_time_limit=100)
def quota_reap_expired_task() -> int:
    return services.quota_reap_expired()
