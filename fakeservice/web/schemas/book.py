"""Named response schemas: every object shape an operation answers (a project, a job, a
user...) is published once under ``components/schemas`` and referenced from there, so
a client generator gets one named model per shape and identical shapes share one name.

:meth:`SchemaBook.use` gives an operation's schema with its object shape (or the shape
of its list's items) replaced by a ``$ref``; :attr:`SchemaBook.schemas` holds them.
"""

from __future__ import annotations

import json
from typing import Any

Schema = dict[str, Any]


class SchemaBook:
    def __init__(self) -> None:
        self._names: dict[str, str] = {}
        self.schemas: dict[str, Schema] = {}

    def _ref(self, part: Schema, name: str) -> Schema:
        key = json.dumps(part, sort_keys=True)
        if key not in self._names:
            self._names[key] = name
            self.schemas[name] = part
        return {"$ref": f"#/components/schemas/{self._names[key]}"}

    def use(self, schema: Schema, name: str) -> Schema:
        """``schema`` with its object shape referenced (named ``name`` if new)."""
        if schema.get("type") == "object":
            return self._ref(schema, name)
        if schema.get("type") == "array" and schema.get("items", {}).get("type") == "object":
            return {**schema, "items": self._ref(schema["items"], name + "_item")}
        return schema
