"""A bounded property-based fuzz of every documented operation against the in-process
service: no answer is a 5xx, every status is one the document lists for the operation,
and every JSON answer with a documented schema conforms to it. The examples are
derandomized (the same requests every run) and capped (``FAKESERVICE_FUZZ_EXAMPLES``,
12 by default; ``FAKESERVICE_FUZZ_RANDOM=1`` draws new requests each run, to hunt for
more). An operation added since ``observed.json`` was last recorded is only
held to "no 5xx" until it is recorded (see README, "Response schemas are recorded")."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService

from .helpers import Operation, operations, problems, template
from .strategies import requests

OPERATIONS = operations()
FUZZ = settings(
    max_examples=int(os.environ.get("FAKESERVICE_FUZZ_EXAMPLES", "12")),
    deadline=None,
    derandomize="FAKESERVICE_FUZZ_RANDOM" not in os.environ,
    database=None,
    suppress_health_check=list(HealthCheck),
)


@pytest.mark.parametrize("operation", OPERATIONS, ids=[o.id for o in OPERATIONS])
def test_operation_keeps_its_document(operation: Operation) -> None:
    service = FakeService.from_template(template())

    @FUZZ
    @given(st.data())
    def check(data: st.DataObject) -> None:
        call: dict[str, Any] = data.draw(requests(operation))
        path = call.pop("path")
        found = service.router.resolve(operation.method.upper(), path.partition("?")[0])
        if getattr(found, "endpoint", None) is not operation.endpoint:
            return  # the drawn path names another operation (e.g. members/all)
        response = service.request(operation.method.upper(), path, **call)
        errors = [repr(e) for e in service.server_errors]
        service.server_errors.clear()
        found_problems = problems(operation, response) + errors
        assert not found_problems, (operation.id, path, call, found_problems)

    check()
