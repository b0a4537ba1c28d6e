"""Serve the Saga MCP tools over stdio for one user: `manage.py saga_mcp --transport stdio`."""

import anyio
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from apps.saga.mcp_server import build_server
from apps.saga.mcp_stdio import serve_stdio


class Command(BaseCommand):
    help = "Serve the Saga MCP tools over stdio as the given user (HTTP is served at /mcp/saga)."

    def add_arguments(self, parser):
        parser.add_argument("--transport", choices=["stdio"], default="stdio")
        parser.add_argument("--user", required=True, help="Email of the user who owns the sagas.")

    def handle(self, *args, **options):
        user = (
            get_user_model()
            .objects.filter(email=options["user"].strip().lower(), is_active=True)
            .first()
        )
        if user is None:
            raise CommandError(f"No active user with email {options['user']!r}.")
        # stdout carries the protocol from here on; nothing else may print to it.
        # One message may be no larger than a request to /mcp/saga.
        anyio.run(serve_stdio, build_server(fixed_user=user))
