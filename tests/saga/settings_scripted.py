"""Test settings plus scripted saga roles, for the stdio subprocess in black-box tests."""

from sagasmith_web.settings.test import *  # noqa: F403

SAGASMITH_SAGA_CLARIFIER = "tests.saga.scripted.clarifier"
SAGASMITH_SAGA_PLANNER = "tests.saga.scripted.planner"
SAGASMITH_SAGA_EVALUATOR = "tests.saga.scripted.evaluator"
