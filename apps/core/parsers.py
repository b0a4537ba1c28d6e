"""The API's JSON parser: every body it cannot take is a 400, never a 500."""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser as BaseJSONParser


class JSONParser(BaseJSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            # The standard decoder recurses once per level; DRF only catches ValueError.
            raise ParseError("JSON parse error - the body is nested too deeply.") from None
