"""The object store: the object table (every git object by hex id), wrapped for dulwich."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

from dulwich.object_store import MemoryObjectStore
from dulwich.objects import ShaFile

from fakeservice.repository.engine.table import ObjectTable


class ObjectStore(MemoryObjectStore):
    """A dulwich object store over ``raw``: hex sha -> (type number, raw bytes).

    Objects are parsed on demand, so reading is cheap, and pickling copies only bytes.
    A plain ``dict`` (a snapshot from before the table) is taken into a table.
    """

    def __init__(self, raw: ObjectTable | dict[bytes, tuple[int, bytes]] | None = None) -> None:
        super().__init__()
        self.raw = raw if isinstance(raw, ObjectTable) else ObjectTable(raw)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ObjectStore, (self.raw,))

    def contains_loose(self, sha: Any) -> bool:
        return self._to_hexsha(sha) in self.raw

    def __iter__(self) -> Iterator[Any]:
        return iter(list(self.raw))

    def get_raw(self, name: Any) -> tuple[int, bytes]:
        return self.raw[self._to_hexsha(name)]

    def __getitem__(self, name: Any) -> ShaFile:
        hexsha = self._to_hexsha(name)
        type_num, data = self.raw[hexsha]
        return ShaFile.from_raw_string(type_num, data, sha=hexsha)

    def __delitem__(self, name: Any) -> None:
        del self.raw[self._to_hexsha(name)]
        self._invalidate_peel_cache()

    def add_object(self, obj: ShaFile) -> None:
        self.raw[obj.id] = (obj.type_num, obj.as_raw_string())


def blob_id(content: bytes) -> str:
    """The id git gives a blob with this content (``git hash-object``)."""
    header = b"blob %d\0" % len(content)
    return hashlib.sha1(header + content, usedforsecurity=False).hexdigest()
