"""``/templates/...`` and ``/projects/:id/templates/...``: the built-in set (listed by
name with pagination, fetched by name), licences with their metadata and placeholders
filled, a project's own issue and merge request templates, the 404s and 400s of the
service, python-gitlab's managers, and the data files shipped in the package."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path
from typing import Any

import gitlab
import pytest
from support.calls import ROOT, body, call

from fakeservice import FakeService
from fakeservice.file_templates.catalog import KINDS, templates

ROOT_DIR = Path(__file__).resolve().parents[2]
MIT_HEAD = "MIT License\n\nCopyright (c) 2026 Ann Example\n"


@pytest.mark.parametrize(
    ("kind", "names"),
    [
        ("gitignores", ["Go", "Node", "Python", "Ruby"]),
        ("gitlab_ci_ymls", ["Bash", "Go", "Python"]),
        ("dockerfiles", ["Golang", "Node", "Python"]),
    ],
)
def test_file_kinds_list_and_get(svc: FakeService, kind: str, names: list[str]) -> None:
    listed = call(svc, "GET", f"/templates/{kind}", None, query={"per_page": "2"})
    assert body(listed) == [{"key": n, "name": n} for n in names[:2]]
    assert listed.header("X-Total") == str(len(names))
    got = body(call(svc, "GET", f"/templates/{kind}/{names[-1]}", None))
    assert got["name"] == names[-1] and got["content"].strip()
    missing = call(svc, "GET", f"/templates/{kind}/Cobol", None)
    assert (missing.status, body(missing)) == (404, {"message": "404 Template Not Found"})


def test_ci_templates_are_valid_configurations(svc: FakeService) -> None:
    for template in templates("gitlab_ci_ymls"):
        linted = body(
            call(
                svc,
                "POST",
                "/projects/acme%2Fwebsite/ci/lint",
                json_body={"content": template.content},
            )
        )
        assert linted["valid"], (template.name, linted["errors"])


def test_licences_with_metadata_and_placeholders(svc: FakeService) -> None:
    listed = body(call(svc, "GET", "/templates/licenses", None))
    assert [t["key"] for t in listed] == ["bsd-3-clause", "isc", "mit", "unlicense"]
    assert [t["key"] for t in body(call(svc, "GET", "/templates/licenses?popular=true"))] == ["mit"]
    mit = body(call(svc, "GET", "/templates/licenses/MIT", None, query={"fullname": "Ann Example"}))
    assert {
        k: mit[k] for k in ("key", "name", "nickname", "popular", "conditions", "limitations")
    } == {
        "key": "mit",
        "name": "MIT License",
        "nickname": None,
        "popular": True,
        "conditions": ["include-copyright"],
        "limitations": ["liability", "warranty"],
    }
    assert mit["permissions"] == ["commercial-use", "modifications", "distribution", "private-use"]
    assert mit["content"].startswith(MIT_HEAD) and "[" not in mit["content"].split("\n")[2]
    signed_in = body(call(svc, "GET", "/templates/licenses/isc", "alice-token"))
    assert "Copyright (c) 2026 Alice" in signed_in["content"]
    missing = call(svc, "GET", "/templates/licenses/gpl-3.0", None)
    assert (missing.status, body(missing)) == (404, {"message": "404 License Not Found"})
    assert call(svc, "GET", "/templates/cobol", None).status == 404


def test_project_templates(svc: FakeService) -> None:
    base = "/projects/acme%2Fwebsite/templates"
    assert body(call(svc, "GET", f"{base}/licenses", None))[0] == {
        "key": "bsd-3-clause",
        "name": 'BSD 3-Clause "New" or "Revised" License',
    }
    assert body(call(svc, "GET", f"{base}/gitignores/Go", None))["name"] == "Go"
    assert body(call(svc, "GET", f"{base}/issues")) == []
    for path, text in (
        (".gitlab/issue_templates/Bug.md", "## Steps\n"),
        (".gitlab/issue_templates/notes.txt", "x"),
    ):
        call(
            svc,
            "POST",
            f"/projects/acme%2Fwebsite/repository/files/{path.replace('/', '%2F')}",
            json_body={"branch": "main", "content": text, "commit_message": "add"},
        )
    assert body(call(svc, "GET", f"{base}/issues", None)) == [{"key": "Bug", "name": "Bug"}]
    assert body(call(svc, "GET", f"{base}/issues/Bug", None)) == {
        "name": "Bug",
        "content": "## Steps\n",
    }
    assert body(call(svc, "GET", f"{base}/merge_requests")) == []
    assert body(call(svc, "GET", f"{base}/issues/notes")) == {"message": "404 Template Not Found"}
    bad = call(svc, "GET", f"{base}/snippets")
    assert (bad.status, body(bad)) == (400, {"error": "type does not have a valid value"})
    hidden = call(
        svc, "GET", "/projects/acme%2Fsecret-ops%2Fvault/templates/gitignores", "carol-token"
    )
    assert (hidden.status, body(hidden)) == (404, {"message": "404 Project Not Found"})


def test_project_licence_names_the_project(svc: FakeService) -> None:
    answer = body(
        call(
            svc, "GET", "/projects/acme%2Fwebsite/templates/licenses/mit", query={"fullname": "Ann"}
        )
    )
    assert answer["content"].startswith("MIT License\n\nCopyright (c) 2026 Ann\n")


def test_python_gitlab(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token=ROOT, session=svc.requests_session())
    assert "__pycache__/" in gl.gitignores.get("Python").content
    assert [t.name for t in gl.gitlabciymls.list(get_all=True)] == ["Bash", "Go", "Python"]
    assert gl.dockerfiles.get("Node").content.startswith("FROM node")
    mit = gl.licenses.get("mit", project="Widget", fullname="Ann Example")
    assert mit.content.startswith(MIT_HEAD) and mit.popular is True
    assert [lic.key for lic in gl.licenses.list(popular=True, get_all=True)] == ["mit"]
    project = gl.projects.get("acme/website")
    assert [t.name for t in project.gitignore_templates.list(get_all=True)][:2] == ["Go", "Node"]
    assert project.license_templates.get("isc").key == "isc"
    assert project.issue_templates.list(get_all=True) == []
    with pytest.raises(gitlab.GitlabGetError):
        gl.gitignores.get("Cobol")


def _packaged(patterns: list[str], relative: str) -> bool:
    return any(fnmatch.fnmatch(relative, pattern) for pattern in patterns)


def test_every_template_file_is_package_data() -> None:
    config: Any = tomllib.loads((ROOT_DIR / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["fakeservice"]
    data = ROOT_DIR / "fakeservice" / "file_templates" / "data"
    files = [p for p in data.rglob("*") if p.is_file()]
    assert len(files) == sum(len(templates(kind)) for kind in KINDS) + 1
    for path in files:
        assert _packaged(patterns, path.relative_to(ROOT_DIR / "fakeservice").as_posix()), path
