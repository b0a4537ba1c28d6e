import socket
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command


def _listening():
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen()
    return sock


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_taken_domain_port_is_named_before_anything_starts(settings):
    with _listening() as taken:
        port = taken.getsockname()[1]
        settings.SAGASMITH_LOCAL_DOMAIN_SERVERS = {
            "narrative": {"module": "domain_servers.narrative", "port": port, "plugin": "x"}
        }
        with pytest.raises(CommandError) as exc:
            call_command("run_local", port=_free_port())
    assert str(exc.value) == (
        f"Port {port} for the narrative domain server is already in use (another copy "
        "running?); set PORT, or SAGASMITH_NARRATIVE_PORT, to another port."
    )


@pytest.mark.parametrize(
    ("web", "dnd5e", "narrative"), [("8000", 8101, 8103), ("8800", 8901, 8903)]
)
def test_the_local_domain_ports_follow_port(monkeypatch, web, dnd5e, narrative):
    # Settings are read once per process: a fresh interpreter reads them under this PORT.
    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'sagasmith_web.settings.local';"
        "from django.conf import settings;"
        "print(sorted((k, v['port']) for k, v in settings.SAGASMITH_LOCAL_DOMAIN_SERVERS.items()))"
    )
    env = {"PATH": "/usr/bin:/bin", "PORT": web}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str([("dnd5e", dnd5e), ("narrative", narrative)])
