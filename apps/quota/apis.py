"""Usage API: the caller's balance and ledger."""

from __future__ import annotations

from urllib.parse import urlencode

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from .selectors import (
    LEDGER_PAGE_MAX,
    quota_account_read,
    quota_balance,
    quota_ledger_page,
    quota_uses_attach,
)


class PlanOutput(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    periodic_grant = serializers.IntegerField()
    period = serializers.CharField()


class BalanceOutput(serializers.Serializer):
    balance = serializers.IntegerField()
    reserved = serializers.IntegerField()
    plan = PlanOutput()
    next_grant_at = serializers.CharField(allow_null=True)


class UsageBalanceApi(APIView):
    @extend_schema(responses=BalanceOutput)
    def get(self, request):
        account = quota_account_read(user=request.user)
        return Response(BalanceOutput(quota_balance(account=account)).data)


class AllocationOutput(serializers.Serializer):
    grant_id = serializers.UUIDField()
    amount = serializers.IntegerField()


class UseOutput(serializers.Serializer):
    text = serializers.CharField()
    url = serializers.CharField()


class LedgerEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.CharField()
    amount = serializers.IntegerField()
    credits_after = serializers.IntegerField(
        source="running_balance",
        help_text="The account's credits after this entry, held ones included (what the usage "
        "page shows); each entry adds its amount to the one before it.",
    )
    balance_after = serializers.IntegerField(
        help_text="The credits available after this entry, not counting held ones."
    )
    description = serializers.CharField(source="description_in_words")
    use = UseOutput(
        allow_null=True, help_text="What the credits were for, when the entry settled a hold."
    )
    reservation_key = serializers.CharField(source="reservation.key", allow_null=True, default=None)
    allocations = AllocationOutput(many=True)
    created_at = serializers.DateTimeField()


class LedgerPageOutput(serializers.Serializer):
    results = LedgerEntryOutput(many=True)
    next = serializers.CharField(allow_null=True)


class LedgerQueryInput(serializers.Serializer):
    before = serializers.IntegerField(required=False, min_value=1)
    limit = serializers.IntegerField(required=False, min_value=1, max_value=LEDGER_PAGE_MAX)


class UsageLedgerApi(APIView):
    @extend_schema(parameters=[LedgerQueryInput], responses=LedgerPageOutput)
    def get(self, request):
        query = LedgerQueryInput(data=request.query_params)
        query.is_valid(raise_exception=True)
        limit = query.validated_data.get("limit", 50)
        account = quota_account_read(user=request.user)
        entries, next_before = quota_ledger_page(
            account=account, before=query.validated_data.get("before"), limit=limit,
            running_balance=True,
        )  # fmt: skip
        quota_uses_attach(account=account, entries=entries)
        next_url = None
        if next_before is not None:
            next_url = f"{request.path}?{urlencode({'before': next_before, 'limit': limit})}"
        return Response(LedgerPageOutput({"results": entries, "next": next_url}).data)
