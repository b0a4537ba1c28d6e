"""Rebuild a saga's state from its events and report differences from the stored state."""

from django.core.management.base import BaseCommand, CommandError

from apps.saga.models import Saga
from apps.saga.services import saga_replay


class Command(BaseCommand):
    help = "Replay a saga's events and compare the rebuilt state with the stored one."

    def add_arguments(self, parser):
        parser.add_argument("saga_id", help="The public saga id (saga-<ms>-<suffix>).")

    def handle(self, *args, **options):
        saga = Saga.objects.filter(key=options["saga_id"]).first()
        if saga is None:
            raise CommandError(f"Saga {options['saga_id']} was not found.")
        report = saga_replay(saga=saga)
        self.stdout.write(f"{saga.key}: {report['eventCount']} events replayed")
        if not report["differences"]:
            self.stdout.write(self.style.SUCCESS("rebuilt state matches the stored state"))
            return
        for line in report["differences"]:
            self.stdout.write(line)
        raise CommandError(f"{len(report['differences'])} field(s) differ")
