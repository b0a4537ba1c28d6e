"""`check --deploy` warnings about how the web host reaches its domain servers."""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.core.checks import Warning, register


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@register("domains", deploy=True)
def domain_targets_use_tls(app_configs=None, **kwargs) -> list[Warning]:
    """A warning, not a refusal: the domain servers serve plain HTTP themselves, so a deployment
    on a private network may be intended; off that network the tokens and state are exposed."""
    from django.conf import settings

    warnings = []
    for system_id, entry in sorted((settings.SAGASMITH_DOMAINS or {}).items()):
        url = entry.get("url") if isinstance(entry, dict) else None
        if not url:
            continue
        parts = urlsplit(str(url))
        host = parts.hostname or ""
        if parts.scheme == "https" or _is_loopback(host):
            continue
        warnings.append(
            Warning(
                f"SAGASMITH_DOMAINS[{system_id!r}] reaches its domain server at {host} over "
                "plain HTTP: delegation tokens, tool arguments and game state cross the network "
                "unencrypted and unauthenticated",
                hint="Put the domain server behind TLS and use an https:// URL, or keep it on "
                "this host (loopback).",
                id="sagasmith.W003",
            )
        )
    return warnings
