"""The refusals of an administrators-only endpoint, as a parametrization of
``(token, status, answer)``: anonymous 401, a signed-in non-administrator 403."""

from __future__ import annotations

import pytest

REFUSALS = [
    (None, 401, {"message": "401 Unauthorized"}),
    ("alice-token", 403, {"message": "403 Forbidden"}),
]
refused_to_non_admins = pytest.mark.parametrize(("token", "status", "answer"), REFUSALS)
