"""Avatar files: validation (the model's size and format rules), storage and the URL.

An avatar lives in ``store.extras["avatars"][path]`` as an :class:`Avatar` (so snapshots
carry it); the owning record keeps its ``avatar_path``
(``/uploads/-/system/<kind>/avatar/<id>/<file name>``) and views turn it into
``avatar_url``. A new avatar replaces the old one.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from fakeservice.core.errors import ValidationFailed
from fakeservice.core.store import Store, Table
from fakeservice.web.http import UploadedFile
from fakeservice.web.params import Invalid, ParamType

MAX_BYTES = 200 * 1024
FORMATS = ("png", "jpg", "jpeg", "gif", "bmp", "tiff", "ico", "webp")
TOO_BIG = "is too big (should be at most 200 KiB)"
BAD_FORMAT = (
    "file format is not supported. Please try one of the following supported formats: "
    + ", ".join(FORMATS)
)
CONTENT_TYPES = {
    "png": "image/png",
    "jpg": "image/jpeg",
    "jpeg": "image/jpeg",
    "gif": "image/gif",
    "bmp": "image/bmp",
    "tiff": "image/tiff",
    "ico": "image/vnd.microsoft.icon",
    "webp": "image/webp",
}
_KEY = "avatars"
_UNSAFE = re.compile(r"[^\w.+-]")


@attrs.frozen
class Avatar:
    file_name: str
    content_type: str
    data: bytes


class _AvatarFile(ParamType):
    """An ``avatar`` upload, checked as the model checks it before anything is stored
    (a model validation error, 400 ``{"message": {"avatar": [...]}}``)."""

    name = "file"

    def coerce(self, value: Any) -> Any:
        if not isinstance(value, UploadedFile):
            raise Invalid
        extension = value.filename.rsplit(".", 1)[-1].lower() if "." in value.filename else ""
        errors = []
        if extension not in FORMATS:
            errors.append(BAD_FORMAT)
        if len(value.data) > MAX_BYTES:
            errors.append(TOO_BIG)
        if errors:
            raise ValidationFailed({"avatar": errors})
        return value

    def schema(self) -> dict[str, Any]:
        return {"type": "string", "format": "binary"}


AVATAR_FILE: ParamType = _AvatarFile()


def _avatars(store: Store) -> dict[str, Avatar]:
    return store.extras.setdefault(_KEY, {})


def safe_file_name(name: str) -> str:
    """The upload's base name with anything but word characters, ``.``, ``+`` and ``-``
    replaced (no directories, no traversal)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    cleaned = _UNSAFE.sub("_", base).lstrip(".")
    return cleaned or "avatar"


def _table(store: Store, kind: str) -> Table[Any]:
    from fakeservice.groups.models import namespaces
    from fakeservice.projects.models import projects
    from fakeservice.users.models import users

    return {"user": users, "group": namespaces, "project": projects}[kind](store)


def attach(store: Store, kind: str, record: Any, upload: Any) -> None:
    """Store ``upload`` (an avatar file checked by :data:`AVATAR_FILE`; None: nothing to
    do) as the avatar of ``record`` (``kind``: user, group or project)."""
    if not isinstance(upload, UploadedFile):
        return
    name = safe_file_name(upload.filename)
    extension = name.rsplit(".", 1)[-1].lower()
    path = f"/uploads/-/system/{kind}/avatar/{record.id}/{name}"
    avatars = _avatars(store)
    if record.avatar_path is not None:
        avatars.pop(record.avatar_path, None)
    content_type = CONTENT_TYPES.get(extension, "application/octet-stream")
    avatars[path] = Avatar(name, content_type, upload.data)
    _table(store, kind).update(record, avatar_path=path)


def find(store: Store, path: str) -> Avatar | None:
    return _avatars(store).get(path)


def avatar_url(record: Any, base_url: str) -> str | None:
    path = getattr(record, "avatar_path", None)
    return f"{base_url}{path}" if path else None
