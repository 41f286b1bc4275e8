"""Epic notes (``/groups/:id/epics/:epic_id/notes``, the epic's global id) over raw HTTP
and through python-gitlab's ``epic.notes``: the five operations, the single-note shape,
``user_notes_count``, close/reopen system notes, and the 404s."""

from __future__ import annotations

import gitlab
import pytest
from support.calls import body, call

from fakeservice import FakeService

from .conftest import ALICE, BOB, EPICS, create


def _epic(svc: FakeService) -> dict:
    create(svc, path="/groups/acme%2Fplatform/epics", title="Elsewhere")
    epic = create(svc, title="Launch")
    assert (epic["id"], epic["iid"]) == (2, 1)
    return epic


def test_note_crud_by_global_id(svc: FakeService) -> None:
    epic = _epic(svc)
    notes = f"/groups/acme/epics/{epic['id']}/notes"
    made = call(svc, "POST", notes, ALICE, json_body={"body": "First"})
    assert made.status == 201
    note = body(made)
    assert (note["body"], note["noteable_type"], note["noteable_id"], note["system"]) == (
        "First",
        "Epic",
        epic["id"],
        False,
    )
    assert (note["noteable_iid"], note["project_id"]) == (epic["iid"], None)
    single = body(call(svc, "GET", f"{notes}/{note['id']}", ALICE))
    assert set(single) == {
        "id",
        "title",
        "file_name",
        "author",
        "expires_at",
        "updated_at",
        "created_at",
        "confidential",
    }
    assert (single["id"], single["title"], single["confidential"]) == (note["id"], "Launch", False)
    assert body(call(svc, "GET", f"{EPICS}/1", ALICE))["user_notes_count"] == 1
    edited = call(svc, "PUT", f"{notes}/{note['id']}", ALICE, json_body={"body": "Edited"})
    assert (edited.status, body(edited)["body"]) == (200, "Edited")
    assert [n["body"] for n in body(call(svc, "GET", notes, BOB))] == ["Edited"]
    assert call(svc, "DELETE", f"{notes}/{note['id']}", ALICE).status == 204
    assert body(call(svc, "GET", notes, ALICE)) == []
    assert body(call(svc, "GET", f"{EPICS}/1", ALICE))["user_notes_count"] == 0


def test_unknown_or_foreign_epic_is_404(svc: FakeService) -> None:
    _epic(svc)
    # epic 1 lives in acme/platform, not in acme
    for path in ("/groups/acme/epics/1/notes", "/groups/acme/epics/99/notes"):
        response = call(svc, "POST", path, ALICE, json_body={"body": "x"})
        assert response.status == 404
    assert call(svc, "GET", "/groups/acme/epics/2/notes/1", ALICE).status == 404
    assert call(svc, "GET", "/groups/acme/epics/2/notes", None).status == 401
    assert call(svc, "POST", "/groups/acme/epics/2/notes", ALICE, json_body={}).status == 400


def test_close_and_reopen_write_system_notes(svc: FakeService) -> None:
    epic = _epic(svc)
    notes = f"/groups/acme/epics/{epic['id']}/notes"
    call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "close"})
    call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "close"})  # no-op
    call(svc, "PUT", f"{EPICS}/1", ALICE, json_body={"state_event": "reopen"})
    listed = body(call(svc, "GET", notes, ALICE, query={"sort": "asc"}))
    assert [(n["body"], n["system"]) for n in listed] == [("closed", True), ("reopened", True)]
    assert body(call(svc, "GET", f"{EPICS}/1", ALICE))["user_notes_count"] == 0
    assert call(svc, "DELETE", f"{notes}/{listed[0]['id']}", BOB).status == 403
    call(svc, "DELETE", f"{EPICS}/1", ALICE)
    assert call(svc, "GET", notes, ALICE).status == 404


def test_python_gitlab_epic_notes(svc: FakeService) -> None:
    _epic(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        epic = gl.groups.get("acme").epics.get(1)
        note = epic.notes.create({"body": "Hello"})
        assert (note.body, note.noteable_id) == ("Hello", epic.id)
        note.body = "Hello again"
        note.save()
        assert [n.body for n in epic.notes.list(get_all=True)] == ["Hello again"]
        assert epic.notes.get(note.id).title == "Launch"
        assert gl.groups.get("acme").epics.get(1).user_notes_count == 1
        epic.notes.delete(note.id)
        with pytest.raises(gitlab.GitlabGetError) as gone:
            epic.notes.get(note.id)
        assert gone.value.response_code == 404
