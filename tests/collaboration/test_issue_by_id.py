"""``GET /issues/:id``: one issue by its global id, for administrators only (raw HTTP and
python-gitlab's ``gl.issues.get``)."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService

from .conftest import SHOP


def test_administrator_gets_any_issue_by_global_id(svc: FakeService) -> None:
    listed = body(call(svc, "GET", f"/projects/{SHOP}/issues", ROOT, query={"sort": "asc"}))
    secret = next(i for i in listed if i["title"] == "Secret")
    response = call(svc, "GET", f"/issues/{secret['id']}", ROOT)
    assert response.status == 200
    by_id = body(response)
    by_iid = body(call(svc, "GET", f"/projects/{SHOP}/issues/{secret['iid']}", ROOT))
    assert by_id == by_iid
    assert by_id["confidential"] is True
    assert "subscribed" in by_id


@pytest.mark.parametrize(
    ("token", "status", "answer"),
    [
        ("maya-token", 403, {"message": "403 Forbidden"}),
        (None, 401, {"message": "401 Unauthorized"}),
    ],
)
def test_other_callers_are_refused(
    svc: FakeService, token: str | None, status: int, answer: dict[str, str]
) -> None:
    response = call(svc, "GET", "/issues/1", token)
    assert (response.status, body(response)) == (status, answer)


def test_unknown_and_malformed_ids(svc: FakeService) -> None:
    missing = call(svc, "GET", "/issues/99999", ROOT)
    assert (missing.status, body(missing)) == (404, {"message": "404 Not found"})
    bad = call(svc, "GET", "/issues/abc", ROOT)
    assert (bad.status, body(bad)) == (400, {"error": "id is invalid"})


def test_python_gitlab_issues_get(svc: FakeService) -> None:
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ROOT)
        first = gl.projects.get("acme/shopfloor/shop").issues.list(get_all=True)[0]
        fetched = gl.issues.get(first.id)
        assert (fetched.id, fetched.iid, fetched.title) == (first.id, first.iid, first.title)
        with pytest.raises(gitlab.GitlabGetError) as missing:
            gl.issues.get(99999)
        assert missing.value.response_code == 404
        user = gitlab.Gitlab(url, private_token="maya-token")
        with pytest.raises(gitlab.GitlabGetError) as refused:
            user.issues.get(first.id)
        assert refused.value.response_code == 403
