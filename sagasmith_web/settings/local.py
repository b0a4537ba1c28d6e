"""Embedded defaults for one machine: SQLite, no external services, console email."""

from .base import *  # noqa: F403
from .base import VAR_DIR, env

DEBUG = env.bool("DJANGO_DEBUG", default=True)


def _local_secret() -> str:
    # A per-checkout key kept under var/, so nothing secret lives in the repository.
    import secrets

    path = VAR_DIR / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(50))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = env.str("DJANGO_SECRET_KEY", default="") or _local_secret()

# Domain servers that `manage.py run_local` starts on loopback, and how Django reaches them.
# Their ports follow PORT (8000: 8101 and 8103), so a second copy on another PORT just works.
_WEB_PORT = env.int("PORT", 8000)
SAGASMITH_LOCAL_DOMAIN_SERVERS = {
    "dnd5e": {
        "module": "domain_servers.dnd5e",
        "port": env.int("SAGASMITH_DND5E_PORT", _WEB_PORT + 101),
        "plugin": "apps.domains.plugins.dnd5e.Dnd5ePlugin",
    },
    "narrative": {
        "module": "domain_servers.narrative",
        "port": env.int("SAGASMITH_NARRATIVE_PORT", _WEB_PORT + 103),
        "plugin": "apps.domains.plugins.narrative.NarrativePlugin",
    },
}
SAGASMITH_DOMAINS = {
    system_id: {"plugin": spec["plugin"], "url": f"http://127.0.0.1:{spec['port']}/mcp"}
    for system_id, spec in SAGASMITH_LOCAL_DOMAIN_SERVERS.items()
}
