"""Beat entries for the lead to merge into CELERY_BEAT_SCHEDULE."""

QUOTA_BEAT_SCHEDULE = {
    # Hourly is enough: a grant is issued at most once per account and period.
    "quota-issue-periodic-grants": {
        "task": "quota.issue_periodic_grants",
        "schedule": 3600.0,
    },
    # Reads leave an expired grant's unused credits out without writing; this writes them off
    # in the ledger within a minute rather than at the hourly run. One query when none lapsed.
    "quota-expire-grants": {
        "task": "quota.expire_grants",
        "schedule": 60.0,
    },
    # Reservations default to a 300 s lease; a minute's sweep frees abandoned ones promptly.
    "quota-reap-expired": {
        "task": "quota.reap_expired",
        "schedule": 60.0,
    },
}
