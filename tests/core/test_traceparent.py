"""The trace a request's work continues: a client's traceparent only when well-formed."""

from __future__ import annotations

from django.test import RequestFactory

from apps.core.request_context import request_traceparent

GIVEN = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"


def test_a_well_formed_client_traceparent_is_continued():
    request = RequestFactory().get("/", HTTP_TRACEPARENT=GIVEN)
    assert request_traceparent(request) == GIVEN


def test_a_traceparent_with_a_trailing_newline_starts_a_new_trace():
    request = RequestFactory().get("/", HTTP_TRACEPARENT=GIVEN + "\n")
    started = request_traceparent(request)
    assert started != GIVEN + "\n"
    assert "\n" not in started
    assert len(started) == 55 and started.startswith("00-") and started.endswith("-00")
