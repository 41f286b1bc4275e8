"""``GET /version`` and ``GET /metadata``: what release the fake claims to be."""

from __future__ import annotations

from typing import Any

from fakeservice.web.context import Context
from fakeservice.web.routing import REQUIRED, AreaRouter

api = AreaRouter("meta")

VERSION = "17.6.0-ee"
REVISION = "f4k3s3rv"


def metadata() -> dict[str, Any]:
    return {
        "version": VERSION,
        "revision": REVISION,
        "kas": {
            "enabled": False,
            "externalUrl": None,
            "externalK8sProxyUrl": None,
            "version": None,
        },
        "enterprise": True,
    }


@api.get("/version", auth=REQUIRED, read_scopes=("read_user",))
def get_version(ctx: Context) -> dict[str, Any]:
    """Version and revision of the instance."""
    return {"version": VERSION, "revision": REVISION}


@api.get("/metadata", auth=REQUIRED, read_scopes=("read_user",))
def get_metadata(ctx: Context) -> dict[str, Any]:
    """Version, revision, KAS and edition of the instance."""
    return metadata()
