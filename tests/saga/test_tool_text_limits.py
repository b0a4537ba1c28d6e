"""What the Saga tools tell a client about artifact sizes is what the server enforces: the
operator's settings, not the built-in defaults."""

import asyncio

from apps.saga import mcp_server


def _texts(server):
    tools = {t.name: t for t in asyncio.run(server.list_tools())}
    artifacts = tools["saga_advance"].input_schema["properties"]["artifacts"]["description"]
    return server.instructions, artifacts


def test_the_tools_state_the_default_artifact_limits():
    instructions, artifacts = _texts(mcp_server.build_server(fixed_user="u"))

    assert instructions.endswith("Artifacts: relative paths, at most 1 MiB each.")
    assert artifacts == (
        "Files: [{path, content}]; relative paths, no '..', <= 1 MiB each and <= 20 MiB for "
        "all of a saga's artifacts."
    )


def test_the_tools_state_the_artifact_limits_an_operator_set(settings):
    settings.SAGASMITH_SAGA_MAX_ARTIFACT_BYTES = 256 * 1024
    settings.SAGASMITH_SAGA_MAX_TOTAL_ARTIFACT_BYTES = 5_000_000

    instructions, artifacts = _texts(mcp_server.build_server(fixed_user="u"))

    assert instructions.endswith("Artifacts: relative paths, at most 256 KiB each.")
    assert artifacts == (
        "Files: [{path, content}]; relative paths, no '..', <= 256 KiB each and <= 5000000 bytes "
        "for all of a saga's artifacts."
    )
