"""Response schemas written by hand, for the operations whose answers are not a view's
shape: the OpenAPI document itself (recording it would describe one document, not the
format). They take precedence over the recorded ones and are not recorded."""

from __future__ import annotations

from typing import Any

DECLARED: dict[str, dict[str, Any]] = {
    "GET /api/v4/openapi.json": {
        "type": "object",
        "properties": {
            "openapi": {"type": "string"},
            "info": {"type": "object"},
            "servers": {"type": "array", "items": {"type": "object"}},
            "paths": {"type": "object"},
            "components": {"type": "object"},
        },
        "required": ["components", "info", "openapi", "paths"],
    },
}
