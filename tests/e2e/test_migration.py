"""A migration script: pages through every project of a group (offset pages with
``get_all=True``, a lazy offset iterator, and the instance-wide keyset iterator), reads
files, creates a migration branch in each project that has a repository, and checks what
a user who is no member of anything may see and do."""

from __future__ import annotations

import gitlab
import pytest

from .conftest import Live

OSS_PATHS = [f"lib-{n:02d}" for n in range(1, 31)]


def test_pages_every_project_of_a_group(live: Live) -> None:
    gl = live.gitlab("root-token")
    oss = gl.groups.get("oss")
    journal = live.service.journal

    # Every page, eagerly: 30 projects at the default 20 per page is two requests.
    journal.clear()
    projects = oss.projects.list(get_all=True, order_by="path", sort="asc")
    assert [p.path for p in projects] == OSS_PATHS
    assert {p.namespace["full_path"] for p in projects} == {"oss"}
    assert {p.visibility for p in projects} == {"public"}
    pages = journal.entries(method="GET", path="/groups/*/projects")
    assert [(e.query.get("page"), e.status) for e in pages] == [(None, 200), ("2", 200)]

    # Lazily, with the offset headers python-gitlab exposes.
    iterator = oss.projects.list(iterator=True, per_page=7, order_by="id", sort="asc")
    assert (iterator.total, iterator.total_pages, iterator.per_page) == (30, 5, 7)
    by_id = [p.id for p in iterator]
    assert by_id == sorted(by_id) and len(by_id) == 30
    assert {p.id for p in projects} == set(by_id)

    # Group project lists have no keyset pagination.
    with pytest.raises(gitlab.GitlabListError) as refused:
        oss.projects.list(iterator=True, pagination="keyset", order_by="id", per_page=10)
    assert refused.value.response_code == 405
    assert refused.value.error_message == (
        "Keyset pagination is not yet available for this type of request"
    )

    # The instance-wide keyset iterator (order_by=id) reaches the same projects.
    journal.clear()
    keyset = gl.projects.list(
        iterator=True, pagination="keyset", order_by="id", sort="asc", per_page=10
    )
    everything = list(keyset)
    assert keyset.total is None  # no X-Total with keyset pagination
    assert len(everything) == 34
    assert [p.id for p in everything] == sorted(p.id for p in everything)
    in_oss = [p.id for p in everything if p.namespace["full_path"] == "oss"]
    assert in_oss == by_id
    requests_made = journal.entries(method="GET", path="/projects")
    assert [e.query.get("id_after") for e in requests_made] == [
        None,
        str(everything[9].id),
        str(everything[19].id),
        str(everything[29].id),
    ]

    # The raw answer: only a Link rel="next" carrying id_after, no offset headers.
    raw = live.http.get(
        f"{live.url}/api/v4/projects",
        params={"pagination": "keyset", "order_by": "id", "sort": "asc", "per_page": 10},
        headers={"PRIVATE-TOKEN": "root-token"},
    )
    assert raw.status_code == 200
    assert raw.links["next"]["url"].startswith(f"{live.url}/api/v4/projects?")
    assert f"id_after={everything[9].id}&" in raw.links["next"]["url"]
    assert list(raw.links) == ["next"]
    for header in ("X-Total", "X-Total-Pages", "X-Page", "X-Next-Page"):
        assert header not in raw.headers


def test_reads_files_and_creates_a_migration_branch_in_each_project(live: Live) -> None:
    gl = live.gitlab("alice-token")  # alice owns acme
    acme = gl.groups.get("acme")
    listed = acme.projects.list(get_all=True, include_subgroups=True)
    assert [p.path_with_namespace for p in listed] == [
        "acme/secret-ops/vault",
        "acme/platform/api",
        "acme/website",
    ]
    assert [p.path_with_namespace for p in acme.projects.list(get_all=True)] == ["acme/website"]

    migrated = {}
    for item in listed:
        project = gl.projects.get(item.id)
        if project.empty_repo:
            # Nothing to migrate; as the service does, the branch request first creates
            # the default branch with one commit adding an empty README.md.
            with pytest.raises(gitlab.GitlabGetError) as no_file:
                project.files.get("README.md", ref="main")
            assert no_file.value.error_message == "404 Commit Not Found"
            branch = project.branches.create({"branch": "migration/2026", "ref": "main"})
            assert project.files.raw("README.md", ref="main") == b""
            assert branch.commit["title"] == "Add README.md"
            names = [b.name for b in project.branches.list(get_all=True)]
            assert names == ["main", "migration/2026"]
            assert gl.projects.get(item.id).empty_repo is False
            continue

        tree = sorted(entry["path"] for entry in project.repository_tree(get_all=True))
        readme = project.files.get("README.md", ref=project.default_branch)
        main = project.branches.get(project.default_branch)
        branch = project.branches.create({"branch": "migration/2026", "ref": "main"})
        assert branch.name == "migration/2026"
        assert branch.commit["id"] == main.commit["id"]
        assert (branch.protected, branch.default) == (False, False)

        project.files.create(
            {
                "file_path": "MIGRATED.md",
                "branch": "migration/2026",
                "content": f"moved from {project.path_with_namespace}\n",
                "commit_message": "Record the migration",
            }
        )
        migrated[project.path_with_namespace] = (tree, readme.decode())

        # The file is on the branch, not on main.
        assert project.files.raw("MIGRATED.md", ref="migration/2026") == (
            b"moved from acme/website\n"
        )
        with pytest.raises(gitlab.GitlabGetError) as absent:
            project.files.get("MIGRATED.md", ref="main")
        assert absent.value.error_message == "404 File Not Found"
        branches = [b.name for b in project.branches.list(get_all=True)]
        assert branches == ["feature/dark-mode", "main", "migration/2026"]
        on_branch = project.commits.list(ref_name="migration/2026", get_all=True)
        assert [c.title for c in on_branch[:2]] == ["Record the migration", "Add a contact page"]

    assert migrated == {
        "acme/website": (
            [".gitlab-ci.yml", "README.md", "contact.html", "index.html"],
            b"# Website\n\nThe public website of ACME.\n",
        )
    }

    # A second run finds the branch already there.
    website = gl.projects.get("acme/website")
    with pytest.raises(gitlab.GitlabCreateError) as again:
        website.branches.create({"branch": "migration/2026", "ref": "main"})
    assert (again.value.response_code, again.value.error_message) == (
        400,
        "Branch already exists",
    )


def test_what_a_non_member_sees_and_may_do(live: Live) -> None:
    """dev003 belongs to no group or project (the script acts as them with sudo)."""
    gl = live.gitlab("root-token")
    gl.headers["Sudo"] = "dev003"
    gl.auth()
    assert gl.user.username == "dev003"

    visible = gl.projects.list(get_all=True)
    assert len(visible) == 33  # everything public or internal
    assert sorted(p.path_with_namespace for p in visible if p.namespace["full_path"] != "oss") == [
        "acme/platform/api",
        "acme/website",
        "alice/dotfiles",
    ]
    assert gl.groups.list(get_all=True) == []  # a member of none
    assert [g.full_path for g in gl.groups.list(get_all=True, all_available=True)] == [
        "acme",
        "oss",
        "acme/platform",
    ]
    acme = gl.groups.get("acme")
    assert sorted(
        p.path_with_namespace for p in acme.projects.list(get_all=True, include_subgroups=True)
    ) == ["acme/platform/api", "acme/website"]

    # Private: 404, never 403.
    with pytest.raises(gitlab.GitlabGetError) as private:
        gl.projects.get("acme/secret-ops/vault")
    assert (private.value.response_code, private.value.error_message) == (
        404,
        "404 Project Not Found",
    )
    with pytest.raises(gitlab.GitlabGetError) as private_group:
        gl.groups.get("acme/secret-ops")
    assert private_group.value.error_message == "404 Group Not Found"

    # Internal: readable, without any access level.
    api = gl.projects.get("acme/platform/api")
    assert api.visibility == "internal"
    assert api.permissions == {"project_access": None, "group_access": None}

    # Public: files are readable, writes are refused.
    website = gl.projects.get("acme/website")
    assert website.files.raw("index.html", ref="main") == b"<h1>ACME</h1>\n"
    with pytest.raises(gitlab.GitlabCreateError) as branch:
        website.branches.create({"branch": "hack", "ref": "main"})
    assert (branch.value.response_code, branch.value.error_message) == (403, "403 Forbidden")
    with pytest.raises(gitlab.GitlabCreateError) as write:
        website.files.create(
            {"file_path": "x.txt", "branch": "main", "content": "x", "commit_message": "x"}
        )
    assert (write.value.response_code, write.value.error_message) == (
        403,
        "403 Forbidden - You are not allowed to push into this branch",
    )

    # Every request above ran as dev003, on behalf of root.
    entries = live.service.journal.entries(user="dev003")
    assert len(entries) >= 10
    assert {e.sudo_by for e in entries} == {"root"}

    # Anonymous: public only; an external user: public plus their own projects.
    anonymous = live.gitlab()
    assert len(anonymous.projects.list(get_all=True)) == 32
    with pytest.raises(gitlab.GitlabGetError) as internal:
        anonymous.projects.get("acme/platform/api")
    assert internal.value.response_code == 404
    carol = live.gitlab("carol-token")
    assert sorted(
        p.path_with_namespace
        for p in carol.projects.list(get_all=True)
        if p.namespace["full_path"] != "oss"
    ) == ["acme/platform/api", "acme/website", "alice/dotfiles"]


def test_a_fresh_branch_is_not_reported_merged(live: Live) -> None:
    website = live.gitlab("alice-token").projects.get("acme/website")
    branch = website.branches.create({"branch": "migration/2026", "ref": "main"})
    assert branch.merged is False
