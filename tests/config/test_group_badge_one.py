"""One group badge: get, edit, delete and render (the URLs stay as written: a group has no
project to fill the placeholders with), over raw HTTP and python-gitlab."""

from __future__ import annotations

import gitlab
from support.calls import body, call_as

from fakeservice import FakeService

from .test_badges import IMAGE, LINK, add


def test_get_edit_render_delete(svc: FakeService) -> None:
    badge = add(svc, "groups/infra", name="chat")
    path = f"/groups/infra/badges/{badge['id']}"
    got = call_as(svc, "GET", path, "dan")
    assert (got.status, body(got)) == (
        200,
        {
            "name": "chat",
            "id": badge["id"],
            "link_url": LINK,
            "image_url": IMAGE,
            "rendered_link_url": LINK,
            "rendered_image_url": IMAGE,
            "kind": "group",
        },
    )
    edited = call_as(
        svc, "PUT", path, "olga", body={"name": "team", "link_url": "https://t.example"}
    )
    assert edited.status == 200
    assert {k: body(edited)[k] for k in ("name", "link_url", "image_url", "kind")} == {
        "name": "team",
        "link_url": "https://t.example",
        "image_url": IMAGE,
        "kind": "group",
    }
    assert body(call_as(svc, "GET", path, "dan")) == body(edited)
    rendered = call_as(
        svc, "GET", "/groups/infra/badges/render", "dan", link_url=LINK, image_url=IMAGE
    )
    assert (rendered.status, body(rendered)) == (
        200,
        {
            "name": None,
            "link_url": LINK,
            "image_url": IMAGE,
            "rendered_link_url": LINK,
            "rendered_image_url": IMAGE,
        },
    )
    assert call_as(svc, "DELETE", path, "olga").status == 204
    gone = call_as(svc, "GET", path, "dan")
    assert (gone.status, body(gone)) == (404, {"message": "404 Not found"})


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(
        "http://fakeservice.test", private_token="olga-token", session=svc.requests_session()
    )
    group = gl.groups.get("infra")
    made = group.badges.create(
        {"link_url": "https://g.example", "image_url": "https://g.example/i.svg"}
    )
    badge = group.badges.get(made.id)
    assert (badge.link_url, badge.kind) == ("https://g.example", "group")
    badge.name = "renamed"
    badge.save()
    assert group.badges.get(made.id).name == "renamed"
    preview = group.badges.render(link_url="https://r.example/%{project_path}", image_url=IMAGE)
    assert preview["rendered_link_url"] == "https://r.example/%{project_path}"
    badge.delete()
    assert group.badges.list(get_all=True) == []
