"""Compare, merge base, blobs, contributors and archives over raw HTTP and python-gitlab."""

from __future__ import annotations

import base64
import gzip
import io
import tarfile
import zipfile
from typing import Any

import gitlab
import pytest

from fakeservice import FakeService

SCENARIO: dict[str, Any] = {
    "clock": {"mode": "manual", "start": "2026-01-01T09:00:00Z"},
    "users": [
        {"username": "maint", "name": "Mai", "email": "mai@example.com",
         "tokens": [{"token": "maint-token"}]},
        {"username": "dev", "name": "Dev", "email": "dev@example.com",
         "tokens": [{"token": "dev-token"}]},
        {"username": "out", "tokens": [{"token": "out-token"}]},
    ],
    "projects": [
        {"path": "maint/web", "visibility": "private", "creator": "maint",
         "members": [{"user": "dev", "role": "developer"}],
         "files": {"README.md": "# Web\n", "src/app.py": "print(1)\n"},
         "branches": [{"name": "feature", "from": "main"}],
         "commits": [
             {"message": "Feature one", "author": "dev", "branch": "feature",
              "at": "2026-01-01T10:00:00Z", "files": {"src/app.py": "print(2)\n"}},
             {"message": "Feature two", "author": "dev", "branch": "feature",
              "at": "2026-01-01T11:00:00Z", "files": {"docs/a.md": "A\n"}},
             {"message": "Main moves", "author": "maint",
              "at": "2026-01-01T12:00:00Z", "files": {"README.md": "# Web 2\n"}},
         ]},
    ],
}  # fmt: skip
P = "/projects/maint%2Fweb"


def get(svc: FakeService, url: str, token: str | None = "dev-token", **query: Any) -> Any:
    return svc.request("GET", P + url, token=token, query=query or None)


def sha_of(svc: FakeService, ref: str) -> str:
    return get(svc, f"/repository/commits/{ref}").json()["id"]


def test_compare_three_dot_and_straight(svc: FakeService) -> None:
    answer = get(svc, "/repository/compare", **{"from": "main", "to": "feature"})
    assert answer.status == 200
    body = answer.json()
    assert [c["title"] for c in body["commits"]] == ["Feature one", "Feature two"]
    assert body["commit"]["title"] == "Feature two"
    # from the merge base: main's own README change is not part of the diff
    assert sorted(d["new_path"] for d in body["diffs"]) == ["docs/a.md", "src/app.py"]
    app = next(d for d in body["diffs"] if d["new_path"] == "src/app.py")
    assert app["diff"] == "@@ -1 +1 @@\n-print(1)\n+print(2)\n"
    assert (body["compare_same_ref"], body["compare_timeout"]) == (False, False)
    main, feature = sha_of(svc, "main"), sha_of(svc, "feature")
    assert body["web_url"].endswith(f"/maint/web/-/compare/{main}...{feature}")
    straight = get(svc, "/repository/compare", straight="true", **{"from": "main", "to": "feature"})
    paths = sorted(d["new_path"] for d in straight.json()["diffs"])
    assert paths == ["README.md", "docs/a.md", "src/app.py"]
    same = get(svc, "/repository/compare", **{"from": "main", "to": "main"}).json()
    assert (same["commit"], same["commits"], same["diffs"], same["compare_same_ref"]) == (
        None,
        [],
        [],
        True,
    )


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ({"from": "nope", "to": "main"}, 404, "404 Ref Not Found"),
        ({"from": "main", "to": "nope"}, 404, "404 Ref Not Found"),
        ({"from": "main"}, 400, "to is missing"),
        ({"from": "main", "to": "feature", "from_project_id": 999}, 404, "404 Project Not Found"),
    ],
)
def test_compare_errors(svc: FakeService, query: dict[str, Any], status: int, message: str) -> None:
    answer = get(svc, "/repository/compare", **query)
    assert answer.status == status
    assert answer.json() == ({"error": message} if status == 400 else {"message": message})


def test_compare_with_equal_commit_dates() -> None:
    same_time = {
        "users": [{"username": "u", "tokens": [{"token": "u-token"}]}],
        "projects": [{"path": "u/p", "files": {"a": "0"},
                      "commits": [{"files": {"a": str(n)}} for n in range(1, 6)]}],
    }  # fmt: skip
    svc = FakeService(same_time)
    shas = [
        c["id"]
        for c in svc.request("GET", "/projects/u%2Fp/repository/commits", token="u-token").json()
    ]

    def between(old: str, new: str) -> list[str]:
        query = {"from": old, "to": new}
        body = svc.request(
            "GET", "/projects/u%2Fp/repository/compare", token="u-token", query=query
        ).json()
        return [c["id"] for c in body["commits"]]

    assert between(shas[3], shas[0]) == [shas[2], shas[1], shas[0]]
    assert between(shas[0], shas[3]) == []
    assert between(shas[5], shas[0]) == list(reversed(shas[:5]))


def test_compare_from_own_project_id(svc: FakeService) -> None:
    project_id = get(svc, "").json()["id"]
    answer = get(
        svc, "/repository/compare", from_project_id=project_id, **{"from": "main", "to": "feature"}
    )
    assert len(answer.json()["commits"]) == 2


def test_merge_base(svc: FakeService) -> None:
    query = [("refs[]", "main"), ("refs[]", "feature")]
    answer = svc.request("GET", f"{P}/repository/merge_base", token="dev-token", query=query)
    assert answer.status == 200
    assert answer.json()["title"] == "Initial commit"
    history = get(svc, "/repository/commits", ref_name="feature").json()
    assert answer.json()["id"] == history[-1]["id"]
    one = svc.request(
        "GET", f"{P}/repository/merge_base", token="dev-token", query=[("refs[]", "main")]
    )
    assert (one.status, one.json()) == (400, {"message": "Provide at least 2 refs"})
    bad = svc.request(
        "GET", f"{P}/repository/merge_base", token="dev-token",
        query=[("refs[]", "main"), ("refs[]", "x"), ("refs[]", "y")],
    )  # fmt: skip
    assert (bad.status, bad.json()) == (400, {"message": "Could not find refs: x, y"})


def test_blobs(svc: FakeService) -> None:
    tree = get(svc, "/repository/tree", path="src").json()
    blob_id = tree[0]["id"]
    blob = get(svc, f"/repository/blobs/{blob_id}").json()
    assert blob == {
        "size": 9,
        "encoding": "base64",
        "content": base64.b64encode(b"print(1)\n").decode(),
        "sha": blob_id,
    }
    raw = get(svc, f"/repository/blobs/{blob_id}/raw")
    assert (raw.status, raw.body, raw.header("Content-Type")) == (
        200,
        b"print(1)\n",
        "text/plain; charset=utf-8",
    )
    commit = sha_of(svc, "main")
    for missing in ("0" * 40, commit, "..%2Fetc", "abc"):
        answer = get(svc, f"/repository/blobs/{missing}")
        assert (answer.status, answer.json()) == (404, {"message": "404 Blob Not Found"})
    assert get(svc, f"/repository/blobs/{blob_id}", token="out-token").status == 404
    assert get(svc, f"/repository/blobs/{blob_id}", token=None).status == 404


def test_contributors(svc: FakeService) -> None:
    main = get(svc, "/repository/contributors").json()
    assert main == [
        {"name": "Mai", "email": "mai@example.com", "commits": 2, "additions": 0, "deletions": 0}
    ]
    feature = get(svc, "/repository/contributors", ref="feature", order_by="commits").json()
    assert [(c["email"], c["commits"]) for c in feature] == [
        ("mai@example.com", 1),
        ("dev@example.com", 2),
    ]
    by_name = get(svc, "/repository/contributors", ref="feature", order_by="name", sort="desc")
    assert [c["name"] for c in by_name.json()] == ["Mai", "Dev"]
    assert get(svc, "/repository/contributors", ref="nope").json() == []
    assert get(svc, "/repository/contributors", order_by="size").status == 400


def _tar_members(data: bytes) -> dict[str, bytes | None]:
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        return {
            m.name: (archive.extractfile(m).read() if m.isfile() else None)  # type: ignore[union-attr]
            for m in archive.getmembers()
        }


def test_archive_formats_names_and_determinism(svc: FakeService) -> None:
    sha = sha_of(svc, "feature")
    answer = get(svc, "/repository/archive", sha="feature")
    assert answer.status == 200
    top = f"web-feature-{sha}"
    assert answer.header("Content-Disposition") == f'attachment; filename="{top}.tar.gz"'
    assert answer.header("Content-Type") == "application/gzip"
    members = _tar_members(gzip.decompress(answer.body))
    assert members == {
        top: None,
        f"{top}/docs": None,
        f"{top}/src": None,
        f"{top}/README.md": b"# Web\n",
        f"{top}/docs/a.md": b"A\n",
        f"{top}/src/app.py": b"print(2)\n",
    }
    assert get(svc, "/repository/archive", sha="feature").body == answer.body
    zipped = get(svc, "/repository/archive.zip", sha="feature", path="src")
    names = zipfile.ZipFile(io.BytesIO(zipped.body)).namelist()
    assert names == [f"{top}-src/", f"{top}-src/app.py"]
    bz = get(svc, "/repository/archive.tar.bz2")
    assert bz.header("Content-Disposition").endswith(f'-{sha_of(svc, "main")}.tar.bz2"')
    by_param = get(svc, "/repository/archive", format="tar")
    assert f"web-main-{sha_of(svc, 'main')}/README.md" in _tar_members(by_param.body)
    missing = get(svc, "/repository/archive", sha="nope")
    assert (missing.status, missing.json()) == (404, {"message": "404 Not found"})
    assert get(svc, "/repository/archive", format="rar").status == 400


def test_python_gitlab(served: tuple[FakeService, str], svc: FakeService) -> None:
    gl = gitlab.Gitlab(served[1], private_token="dev-token", retry_transient_errors=False)
    project = gl.projects.get("maint/web")
    result = project.repository_compare("main", "feature")
    assert [c["title"] for c in result["commits"]] == ["Feature one", "Feature two"]
    base = project.repository_merge_base(["main", "feature"])
    assert base["title"] == "Initial commit"
    blob_id = next(e["id"] for e in project.repository_tree() if e["name"] == "README.md")
    assert project.repository_blob(blob_id)["size"] == len(b"# Web 2\n")
    assert project.repository_raw_blob(blob_id) == b"# Web 2\n"
    contributors = project.repository_contributors(get_all=True)
    assert [c["email"] for c in contributors] == ["mai@example.com"]
    data = project.repository_archive(sha="main", format="zip")
    assert any(n.endswith("/README.md") for n in zipfile.ZipFile(io.BytesIO(data)).namelist())
