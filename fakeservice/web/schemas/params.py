"""Parameter limits the declarations cannot say, as schema keywords for the document.

The declarations (:mod:`fakeservice.web.params`) carry types, allowed values and
defaults; a few limits live in the models' validation instead (names, paths and
usernames of at most 255 characters, a status message of at most 100). They are listed
here per operation and parameter, and :func:`limits` gives the keywords to add.
"""

from __future__ import annotations

from typing import Any

from fakeservice.core.validation import MAX_LENGTH

_NAME = {"maxLength": MAX_LENGTH}

PARAM_LIMITS: dict[str, dict[str, dict[str, Any]]] = {
    "POST /api/v4/users": {"name": _NAME, "username": _NAME},
    "PUT /api/v4/users/:id": {"name": _NAME, "username": _NAME},
    "PUT /api/v4/user/status": {"message": {"maxLength": 100}},
    "POST /api/v4/groups": {"name": _NAME, "path": _NAME},
    "PUT /api/v4/groups/:id": {"name": _NAME, "path": _NAME},
    "POST /api/v4/projects": {"name": _NAME},
    "PUT /api/v4/projects/:id": {"name": _NAME},
}


def limits(key: str, name: str) -> dict[str, Any]:
    """Extra schema keywords for parameter ``name`` of operation ``key`` (often none)."""
    return PARAM_LIMITS.get(key, {}).get(name, {})
