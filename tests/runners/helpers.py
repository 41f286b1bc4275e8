"""Shared requests of the runners tests."""

from __future__ import annotations

from typing import Any

from support.calls import call

from fakeservice import FakeService
from fakeservice.web.http import Response

INSTANCE_TOKEN = "GR1348941i00000000000"
WEBSITE = "/projects/acme%2Fwebsite"
LIST_FIELDS = {
    "id",
    "description",
    "ip_address",
    "active",
    "paused",
    "is_shared",
    "runner_type",
    "name",
    "online",
    "status",
}


def register(svc: FakeService, token: str = INSTANCE_TOKEN, **fields: Any) -> Response:
    return call(svc, "POST", "/runners", token=None, json_body={"token": token, **fields})


def group_token(svc: FakeService, group: str = "acme") -> str:
    return str(call(svc, "GET", f"/groups/{group}").json()["runners_token"])


def project_token(svc: FakeService, project: str = WEBSITE) -> str:
    answer = call(svc, "POST", f"{project}/runners/reset_registration_token")
    assert answer.status == 201
    return str(answer.json()["token"])


def ids(response: Response) -> list[int]:
    assert response.status == 200, response.body
    return [item["id"] for item in response.json()]


def pipeline(svc: FakeService, ref: str = "main") -> dict[str, Any]:
    created = call(svc, "POST", f"{WEBSITE}/pipeline", json_body={"ref": ref})
    assert created.status == 201, created.body
    return dict(created.json())


def jobs_of(svc: FakeService, pipeline_id: int) -> dict[str, dict[str, Any]]:
    listed = call(svc, "GET", f"{WEBSITE}/pipelines/{pipeline_id}/jobs")
    return {job["name"]: job for job in listed.json()}
