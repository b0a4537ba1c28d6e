"""Manage the keys that sign delegation tokens: list, rotate, activate, remove, write-jwks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.domains.keys import (
    KeyringError,
    jwks_write,
    key_activate,
    key_directory,
    key_remove,
    key_rotate,
    keyring,
)


class Command(BaseCommand):
    help = (
        "Delegation signing keys. `rotate` adds a key that signs from now on (`--staged`: "
        "published only, activate later); the old kid stays in the JWKS until `remove`. "
        "The JWKS file is replaced by rename; a domain server reading it (run_local passes it) "
        "re-reads it on the first token with a kid it does not know, and stops trusting a "
        "removed kid within its --jwks-check-interval (5 s), with no restart."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        actions = parser.add_subparsers(dest="action", required=True)
        actions.add_parser("list", help="List kids, newest first; the first one signs.")
        rotate = actions.add_parser("rotate", help="Generate a new key.")
        rotate.add_argument(
            "--staged", action="store_true", help="Publish the key but keep signing with the old."
        )
        activate = actions.add_parser("activate", help="Make a published kid the signing key.")
        activate.add_argument("kid")
        remove = actions.add_parser("remove", help="Unpublish and delete a key.")
        remove.add_argument("kid")
        write = actions.add_parser("write-jwks", help="Write the public JWKS file.")
        write.add_argument("--path", type=Path, default=None)

    def handle(self, *args: Any, action: str, **options: Any) -> None:
        try:
            if action == "list":
                ring = keyring()
                for index, key in enumerate(ring.keys):
                    marker = "active" if index == 0 else "published"
                    self.stdout.write(f"{key.kid}\t{marker}\t{ring.source}")
            elif action == "rotate":
                key = key_rotate(staged=options["staged"])
                state = "published, not yet signing" if options["staged"] else "now signing"
                self.stdout.write(self.style.SUCCESS(f"{key.kid} {state}"))
                self.stdout.write(f"JWKS: {key_directory() / 'jwks.json'}")
            elif action == "activate":
                key = key_activate(kid=options["kid"])
                self.stdout.write(self.style.SUCCESS(f"{key.kid} now signing"))
            elif action == "remove":
                key_remove(kid=options["kid"])
                self.stdout.write(self.style.SUCCESS(f"{options['kid']} removed"))
            elif action == "write-jwks":
                self.stdout.write(str(jwks_write(path=options["path"])))
        except KeyringError as exc:
            raise CommandError(str(exc)) from exc
