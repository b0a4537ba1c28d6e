from django.urls import path

from . import apis

urlpatterns = [
    path("usage/balance", apis.UsageBalanceApi.as_view(), name="api-usage-balance"),
    path("usage/ledger", apis.UsageLedgerApi.as_view(), name="api-usage-ledger"),
]
