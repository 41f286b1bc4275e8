"""Project import over raw HTTP and python-gitlab: the import machine through every state,
export→import round trips (files, history, refs, settings, members), overrides and
overwrite, hostile and broken archives (``failed`` with ``import_error``, never a 500,
nothing read outside the archive), ``failed_relations`` capped at 100, the size limit and
``remote-import`` behind its feature flag."""

from __future__ import annotations

import io
import json
from typing import Any

import gitlab
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.projects.models import find_project
from fakeservice.repository.models import find_repository
from fakeservice.transfer import archive

from .conftest import (
    ALICE,
    Recorder,
    background,
    exported,
    import_archive,
    import_status,
    make_archive,
)


def repo_of(svc: FakeService, path: str) -> Any:
    project = find_project(svc.store, path)
    assert project is not None
    return find_repository(svc.store, project)


def test_round_trip_gives_back_the_same_repository(svc: FakeService) -> None:
    call(svc, "POST", "/projects/1/repository/tags", query={"tag_name": "v1", "ref": "main"})
    data = exported(svc)
    answer = import_archive(svc, data)
    assert answer.status == 201
    summary = body(answer)
    assert set(summary) == {
        "id", "description", "name", "name_with_namespace", "path", "path_with_namespace",
        "created_at", "import_status", "correlation_id", "failed_relations",
    }  # fmt: skip
    assert (summary["path_with_namespace"], summary["import_status"]) == ("acme/copy", "finished")
    original, copy = repo_of(svc, "acme/website"), repo_of(svc, "acme/copy")
    assert copy == original
    source = body(call(svc, "GET", "/projects/1"))
    imported = body(call(svc, "GET", "/projects/acme%2Fcopy"))
    for key in ("description", "default_branch", "topics", "merge_method", "visibility"):
        assert imported[key] == source[key], key

    def commits(project: str) -> list[str]:
        return [c["id"] for c in body(call(svc, "GET", f"/projects/{project}/repository/commits"))]

    assert commits("acme%2Fcopy") == commits("1")
    raw = call(svc, "GET", "/projects/acme%2Fcopy/repository/files/README.md/raw?ref=main")
    assert raw.body.startswith(b"# Website")


VOLATILE = {"id", "project_id", "source_project_id", "target_project_id", "web_url",
            "references", "_links", "head_pipeline", "pipeline", "noteable_id"}  # fmt: skip


def _stable(value: Any) -> Any:
    """The value without the keys that name the project or a record id."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def test_round_trip_gives_back_issues_and_merge_requests(svc: FakeService) -> None:
    def post(path: str, **fields: Any) -> dict[str, Any]:
        answer = call(svc, "POST", f"/projects/1/{path}", json_body=fields)
        assert answer.status == 201, answer.body
        return body(answer)

    post("labels", name="bug", color="#ff0000", description="Broken")
    post("milestones", title="v1", due_date="2030-01-01")
    call(svc, "PUT", "/projects/1/milestones/" + str(post("milestones", title="old")["id"]),
         json_body={"state_event": "close"})  # fmt: skip
    post("issues", title="Crash", labels="bug,new", milestone_id=1, description="Boom")
    post("issues", title="Second", confidential=True)
    post("issues/1/notes", body="Seen it")
    call(svc, "PUT", "/projects/1/issues/2", json_body={"state_event": "close"})
    post("repository/branches", branch="feature", ref="main")
    post("merge_requests", source_branch="feature", target_branch="main", title="Fix", labels="bug")
    post("merge_requests/1/notes", body="LGTM")
    thread = post("merge_requests/1/discussions", body="Why?")["id"]
    post(f"merge_requests/1/discussions/{thread}/notes", body="Because")
    answer = import_archive(svc, exported(svc))
    assert (answer.status, body(answer)["failed_relations"]) == (201, [])

    def read(project: str, path: str) -> Any:
        answer = call(svc, "GET", f"/projects/{project}/{path}", query={"sort": "asc"})
        assert answer.status == 200, answer.body
        return _stable(body(answer))

    for path in (
        "issues", "issues/1", "issues/2", "issues/1/notes", "issues/2/notes",
        "merge_requests", "merge_requests/1", "merge_requests/1/notes", "labels",
        "merge_requests/1/discussions", "issues/1/discussions",
        "milestones?state=closed", "milestones?state=active",
    ):  # fmt: skip
        assert read("acme%2Fcopy", path) == read("1", path), path
    again = call(svc, "POST", "/projects/acme%2Fcopy/issues", json_body={"title": "Next"})
    assert body(again)["iid"] == 3


def test_members_come_along_when_their_users_exist(svc: FakeService) -> None:
    data = exported(svc, "acme%2Fplatform%2Fapi")
    import_archive(svc, data, token=ROOT)
    members = {
        m["username"]: m["access_level"]
        for m in body(call(svc, "GET", "/projects/acme%2Fcopy/members"))
    }
    assert members.get("carol") == 30


def test_override_params_and_overwrite(svc: FakeService) -> None:
    data = exported(svc)
    first = import_archive(
        svc, data, **{"override_params[description]": "Overridden", "name": "Copy"}
    )
    assert body(first)["description"] == "Overridden"
    assert body(first)["name"] == "Copy"
    taken = import_archive(svc, data)
    assert (taken.status, body(taken)) == (
        400,
        {"message": {"path": ["has already been taken"], "name": ["has already been taken"]}},
    )
    again = import_archive(svc, data, overwrite="true")
    assert again.status == 201
    assert body(again)["id"] != body(first)["id"]
    assert body(call(svc, "GET", "/projects/acme%2Fcopy"))["description"] == "The public website"


def test_timed_import_walks_every_state(svc: FakeService) -> None:
    data = exported(svc)
    background(svc, mode="timed", step_seconds=3)
    assert body(import_archive(svc, data))["import_status"] == "scheduled"
    assert repo_of(svc, "acme/copy") is None
    seen = []
    for _ in range(3):
        svc.advance_clock(seconds=3)
        seen.append(import_status(svc)["import_status"])
    assert seen == ["started", "finished", "finished"]
    assert body(call(svc, "GET", "/projects/acme%2Fcopy"))["import_status"] == "finished"
    assert repo_of(svc, "acme/copy") == repo_of(svc, "acme/website")


def test_manual_import_driven_and_canceled(svc: FakeService) -> None:
    data = exported(svc)
    background(svc, mode="manual")
    project_id = body(import_archive(svc, data))["id"]
    control = f"/_fake/imports/{project_id}"
    assert body(call(svc, "GET", control, None))["events"] == ["start", "fail", "cancel"]
    body(call(svc, "POST", control + "/fire", None, json_body={"event": "start"}))
    canceled = body(call(svc, "POST", control + "/fire", None, json_body={"event": "cancel"}))
    assert canceled["import_status"] == "canceled"
    assert call(svc, "POST", control + "/fire", None, json_body={"event": "finish"}).status == 409


HOSTILE = {
    "not gzip": (b"PK\x03\x04 not a tarball", "The archive is not a gzip file"),
    "gzip of garbage": (__import__("gzip").compress(b"x" * 2048), "The archive is not a valid tar file"),
    "traversal": (make_archive({"../../etc/passwd": b"x"}), "Unsafe archive member: ../../etc/passwd"),
    "nested traversal": (make_archive({"tree/../../x": b"x"}), "Unsafe archive member: tree/../../x"),
    "absolute": (make_archive({"/etc/passwd": b"x"}), "Unsafe archive member: /etc/passwd"),
    "symlink": (make_archive(links={"tree/link": "/etc/passwd"}), "Unsafe archive member: tree/link is not a regular file"),
    "hard link": (make_archive(hardlinks={"tree/hard": "VERSION"}), "Unsafe archive member: tree/hard is not a regular file"),
    "no version": (make_archive(version=b"0.1.8"), "Import version mismatch: Required 0.2.4 but was 0.1.8"),
    "bad json": (make_archive({"tree/project.json": b"{nope"}), "tree/project.json is not valid JSON"),
    "json list": (make_archive(project=[1, 2]), "tree/project.json is not a JSON object"),
    "broken bundle": (make_archive({"project.bundle": b"# v2 git bundle\n" + b"1" * 40 + b" refs/heads/main\n\nPACK" + b"\0\0\0\2" * 12}), "corrupt pack"),
    "not a bundle": (make_archive({"project.bundle": b"hello"}), "not a git bundle"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_hostile_and_broken_archives_fail_the_import(svc: FakeService, case: str) -> None:
    data, error = HOSTILE[case]
    answer = import_archive(svc, data)
    assert answer.status == 201
    status = import_status(svc)
    assert status["import_status"] == "failed"
    assert error in status["import_error"]
    assert status["failed_relations"] == []
    assert repo_of(svc, "acme/copy") is None


def test_a_bundle_ref_to_a_missing_object_fails(svc: FakeService) -> None:
    data = exported(svc)
    contents = archive.read(data)
    assert contents.bundle is not None
    header, _, pack = contents.bundle.partition(b"\n\n")
    forged = header + b"\n" + b"1" * 40 + b" refs/heads/ghost\n\n" + pack
    broken = make_archive({"project.bundle": forged})
    import_archive(svc, broken)
    assert "points at a missing object" in import_status(svc)["import_error"]


def test_too_many_members_and_too_big_archives(
    svc: FakeService, monkeypatch: pytest.MonkeyPatch
) -> None:
    many = make_archive({f"tree/f{i}": b"" for i in range(archive.MAX_MEMBERS + 1)})
    import_archive(svc, many)
    assert import_status(svc)["import_error"] == "The archive has too many files"
    monkeypatch.setattr(archive, "MAX_DECOMPRESSED", 1024)
    bomb = make_archive({"tree/zeros": b"\0" * 100_000})
    import_archive(svc, bomb, path="bomb")
    assert (
        import_status(svc, "acme%2Fbomb")["import_error"]
        == "Decompressed archive size validation failed."
    )


def test_failed_relations_are_recorded_and_capped(svc: FakeService) -> None:
    lines = [
        b"not json",
        b"[1]",
        json.dumps({"access_level": 99, "user": {"username": "bob"}}).encode(),
    ]
    lines += [json.dumps({"user": {}}).encode()] * 150
    data = make_archive({
        "tree/project/project_members.ndjson": b"\n".join(lines) + b"\n",
        "tree/project/unknown_things.ndjson": b"{}\n",
    })  # fmt: skip
    import_archive(svc, data)
    status = import_status(svc)
    assert status["import_status"] == "finished"
    failures = status["failed_relations"]
    assert len(failures) == 100
    first = failures[0]
    assert set(first) == {
        "id", "created_at", "exception_class", "exception_message", "source", "relation_name", "line_number",
    }  # fmt: skip
    assert (first["relation_name"], first["line_number"], first["exception_class"]) == (
        "project_members",
        0,
        "JSONDecodeError",
    )
    assert failures[1]["exception_class"] == "TypeError"
    assert failures[2]["exception_message"] == "access_level 99 is not a role"
    assert failures[3]["exception_class"] == "KeyError"


def test_validation_and_limits(svc: FakeService) -> None:
    data = exported(svc)
    client = svc.httpx_client()
    missing = client.post(
        "/api/v4/projects/import", headers={"PRIVATE-TOKEN": ALICE}, data={"path": "x"}
    )
    assert (missing.status_code, missing.json()) == (400, {"error": "file is missing"})
    assert import_archive(svc, data, token="carol-token").status == 400
    nowhere = client.post(
        "/api/v4/projects/import", headers={"PRIVATE-TOKEN": ALICE},
        data={"path": "x", "namespace": "nope"}, files={"file": ("a.tar.gz", data)},
    )  # fmt: skip
    assert (nowhere.status_code, nowhere.json()) == (404, {"message": "404 Namespace Not Found"})
    call(svc, "PUT", "/application/settings", json_body={"max_import_size": 1})
    big = make_archive({"tree/blob": bytes(range(256)) * 8192})
    too_big = import_archive(svc, big + b"\0" * (1024 * 1024))
    assert too_big.status == 400
    assert body(too_big)["message"].startswith("File is too big (")
    assert find_project(svc.store, "acme/copy") is None
    assert import_archive(svc, data).status == 201


def test_remote_import_flag_off_and_on(svc: FakeService, recorder: Recorder) -> None:
    data = exported(svc)
    payload = {"url": recorder.url + "/export.tar.gz", "path": "remote", "namespace": "acme"}
    off = call(svc, "POST", "/projects/remote-import", ALICE, json_body=payload)
    assert (off.status, body(off)) == (404, {"message": "404 Not Found"})
    flag = "/features/import_project_from_remote_file"
    assert call(svc, "POST", flag, ROOT, json_body={"value": True}).status == 201
    recorder.payload, recorder.content_type = data, "text/html"
    wrong = call(svc, "POST", "/projects/remote-import", ALICE, json_body=payload)
    assert body(wrong) == {
        "message": "Content type 'text/html' not allowed. (Allowed: application/gzip, application/x-gzip, application/x-tar)"
    }
    recorder.content_type = "application/gzip"
    ok = call(svc, "POST", "/projects/remote-import", ALICE, json_body=payload)
    assert ok.status == 201, ok.body
    assert repo_of(svc, "acme/remote") == repo_of(svc, "acme/website")


def test_python_gitlab_import_project(svc: FakeService) -> None:
    data = exported(svc)
    with svc.serve() as url:
        gl = gitlab.Gitlab(url, private_token=ALICE)
        output = gl.projects.import_project(io.BytesIO(data), path="from-gl", namespace="acme",
                                            override_params={"description": "From python-gitlab"})  # fmt: skip
        assert output["import_status"] == "finished"
        project = gl.projects.get(output["id"])
        status = project.imports.get()
        assert (status.import_status, status.import_type) == ("finished", "gitlab_project")
        assert project.description == "From python-gitlab"
        assert [f["name"] for f in project.repository_tree()] == [
            f["name"] for f in gl.projects.get("acme/website").repository_tree()
        ]


FILES = st.dictionaries(
    st.from_regex(r"[a-z]{1,6}(/[a-z]{1,6})?\.txt", fullmatch=True),
    st.text(max_size=40),
    min_size=1,
    max_size=5,
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(commits=st.lists(FILES, min_size=1, max_size=4), description=st.text(max_size=30))
def test_export_import_round_trip_property(
    svc: FakeService, commits: list[dict[str, str]], description: str
) -> None:
    snapshot = svc.snapshot()
    try:
        call(svc, "PUT", "/projects/oss%2Flib-01", json_body={"description": description})
        for index, files in enumerate(commits):
            actions = [
                {"action": "create", "file_path": p, "content": f"{index}:{c}"}
                for p, c in files.items()
            ]
            for action in actions:
                exists = call(
                    svc,
                    "GET",
                    f"/projects/oss%2Flib-01/repository/files/{action['file_path'].replace('/', '%2F')}",
                    query={"ref": "main"},
                )
                if exists.status == 200:
                    action["action"] = "update"
            answer = call(svc, "POST", "/projects/oss%2Flib-01/repository/commits",
                          json_body={"branch": "main", "commit_message": "c", "actions": actions})  # fmt: skip
            assert answer.status == 201, answer.body
        data = exported(svc, "oss%2Flib-01")
        assert import_archive(svc, data, path="lib-copy", token=ROOT).status == 201
        assert repo_of(svc, "acme/lib-copy") == repo_of(svc, "oss/lib-01")
        copy = body(call(svc, "GET", "/projects/acme%2Flib-copy"))
        assert copy["description"] == description
    finally:
        svc.restore(snapshot)
