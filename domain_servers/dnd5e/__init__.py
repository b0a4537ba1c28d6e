"""D&D 5e (SRD 5.1-style) authoritative domain server."""
