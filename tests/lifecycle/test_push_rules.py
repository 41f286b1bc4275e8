"""Push rules: the project and group endpoints (every field round-trips), their errors,
the copy of a group's rule into new projects, the ``push_rule`` scenario key, and the
enforcement on API commits and git pushes with the service's messages."""

from __future__ import annotations

import shutil
from pathlib import Path

import gitlab
import pytest
from repository.test_git_http import Git, remote
from support.calls import call_as

from fakeservice import FakeService
from fakeservice.push_rules.models import FIELDS
from lifecycle.helpers import user_id

APP = "/projects/studio%2Fapp"
EVERY_FIELD = {
    "deny_delete_tag": True,
    "member_check": True,
    "prevent_secrets": True,
    "commit_message_regex": "^(feat|fix):",
    "commit_message_negative_regex": "WIP",
    "branch_name_regex": "^(main|feature/.*)$",
    "author_email_regex": "@example\\.com$",
    "file_name_regex": "\\.exe$",
    "max_file_size": 2,
    "commit_committer_check": True,
    "commit_committer_name_check": True,
    "reject_unsigned_commits": True,
    "reject_non_dco_commits": True,
}


def _rule(svc: FakeService, **fields: object) -> dict:
    made = call_as(svc, "POST", f"{APP}/push_rule", "root", fields)
    assert made.status == 201, made.json()
    return made.json()


def test_every_field_round_trips(svc: FakeService) -> None:
    assert call_as(svc, "GET", f"{APP}/push_rule", "root").body == b"null"
    made = _rule(svc, **EVERY_FIELD)
    assert {k: made[k] for k in FIELDS} == EVERY_FIELD
    assert isinstance(made["id"], int) and made["project_id"] > 0 and made["created_at"]
    assert call_as(svc, "GET", f"{APP}/push_rule", "root").json() == made
    flipped = {k: (not v if isinstance(v, bool) else v) for k, v in EVERY_FIELD.items()}
    flipped.update(commit_message_regex="^x", max_file_size=0)
    edited = call_as(svc, "PUT", f"{APP}/push_rule", "root", flipped)
    assert {k: edited.json()[k] for k in FIELDS} == flipped
    assert call_as(svc, "GET", f"{APP}/push_rule", "root").json() == edited.json()
    gone = call_as(svc, "DELETE", f"{APP}/push_rule", "root")
    assert (gone.status, gone.body) == (204, b"")
    missing = call_as(svc, "PUT", f"{APP}/push_rule", "root", {"deny_delete_tag": True})
    assert (missing.status, missing.json()) == (404, {"message": "404 Push Rule Not Found"})


def test_push_rule_refusals(svc: FakeService) -> None:
    empty = call_as(svc, "POST", f"{APP}/push_rule", "root", {})
    assert empty.status == 400
    assert empty.json()["error"].endswith("are missing, at least one parameter must be provided")
    bad = call_as(
        svc, "POST", f"{APP}/push_rule", "root", {"branch_name_regex": "(", "max_file_size": -1}
    )
    assert bad.status == 400
    assert set(bad.json()["message"]) == {"branch_name_regex", "max_file_size"}
    assert call_as(svc, "GET", f"{APP}/push_rule", "root").body == b"null"
    assert call_as(svc, "GET", f"{APP}/push_rule", "gina").status == 403
    _rule(svc, deny_delete_tag=True)
    again = call_as(svc, "POST", f"{APP}/push_rule", "root", {"deny_delete_tag": True})
    assert (again.status, again.json()) == (422, {"message": "Project push rule exists"})
    typed = call_as(svc, "PUT", f"{APP}/push_rule", "root", {"max_file_size": "big"})
    assert (typed.status, typed.json()) == (400, {"error": "max_file_size is invalid"})


def test_a_plan_without_push_rules_refuses() -> None:
    svc = FakeService({"extends": "default", "plan": "free"})
    found = call_as(svc, "GET", "/projects/acme%2Fwebsite/push_rule", "root")
    assert found.status == 403


def _commit(
    svc: FakeService,
    who: str,
    message: str,
    path: str = "a.txt",
    content: str = "a\n",
    **extra: str,
) -> tuple[int, dict]:
    body = {
        "branch": "main",
        "commit_message": message,
        "actions": [{"action": "create", "file_path": path, "content": content}],
        **extra,
    }
    found = call_as(svc, "POST", f"{APP}/repository/commits", who, body)
    return found.status, found.json()


@pytest.mark.parametrize(
    ("rule", "message", "extra", "refusal"),
    [
        (
            {"commit_message_regex": "^feat:"},
            "chore: x",
            {},
            "Commit message does not follow the pattern '^feat:'",
        ),
        (
            {"commit_message_negative_regex": "WIP"},
            "WIP: x",
            {},
            "Commit message contains the forbidden pattern 'WIP'",
        ),
        ({"reject_non_dco_commits": True}, "x", {}, "Commit message must contain a DCO signoff"),
        ({"reject_unsigned_commits": True}, "x", {}, "Commit must be signed with a GPG key"),
        (
            {"file_name_regex": "\\.txt$"},
            "x",
            {},
            'File name a.txt was prohibited by the pattern "\\.txt$".',
        ),
        (
            {"author_email_regex": "@corp\\.com$"},
            "x",
            {},
            "Author's commit email 'admin@example.com' does not follow the pattern '@corp\\.com$'",
        ),
        (
            {"member_check": True},
            "x",
            {"author_email": "ghost@nowhere.test"},
            "Author 'ghost@nowhere.test' is not a member of team",
        ),
        (
            {"branch_name_regex": "^feature/"},
            "x",
            {"branch": "topic", "start_branch": "main"},
            "Branch name does not follow the pattern '^feature/'",
        ),
    ],
)
def test_api_commits_obey_the_rule(
    svc: FakeService, rule: dict, message: str, extra: dict, refusal: str
) -> None:
    before = call_as(svc, "GET", f"{APP}/repository/branches/main", "root").json()["commit"]["id"]
    _rule(svc, **rule)
    status, answer = _commit(svc, "root", message, **extra)
    assert (status, answer) == (400, {"message": refusal})
    assert (
        call_as(svc, "GET", f"{APP}/repository/branches/main", "root").json()["commit"]["id"]
        == before
    )
    assert call_as(svc, "GET", f"{APP}/repository/branches/topic", "root").status == 404


def test_a_conforming_commit_passes_and_files_api_is_checked_too(svc: FakeService) -> None:
    _rule(svc, commit_message_regex="^feat:", max_file_size=1, prevent_secrets=True)
    assert _commit(svc, "root", "feat: fine")[0] == 201
    big = call_as(
        svc,
        "POST",
        f"{APP}/repository/files/big.bin",
        "root",
        {"branch": "main", "content": "x" * (1024 * 1024 + 1), "commit_message": "feat: big"},
    )
    assert (big.status, big.json()) == (
        400,
        {
            "message": "File 'big.bin' is larger than the allowed size of 1 MiB. Use Git LFS to manage this file."
        },
    )
    secret = call_as(
        svc,
        "POST",
        f"{APP}/repository/files/id_rsa",
        "root",
        {"branch": "main", "content": "k", "commit_message": "feat: key"},
    )
    assert secret.status == 400 and secret.json()["message"].startswith(
        "File name id_rsa was prohibited"
    )


def test_committer_checks_use_the_caller(svc: FakeService) -> None:
    _rule(svc, commit_committer_name_check=True)
    gina = user_id(svc, "gina")
    call_as(svc, "PUT", f"/groups/studio/members/{gina}", "root", {"access_level": 40})
    assert _commit(svc, "gina", "x")[0] == 201


def test_group_rule_is_copied_to_new_projects(svc: FakeService) -> None:
    made = call_as(svc, "POST", "/groups/studio/push_rule", "root", {"commit_message_regex": "^g:"})
    assert made.status == 201 and made.json()["group_id"] > 0
    assert call_as(svc, "GET", "/groups/studio/push_rule", "root").json() == made.json()
    assert call_as(svc, "GET", f"{APP}/push_rule", "root").body == b"null"
    created = call_as(
        svc, "POST", "/projects", "root", {"name": "new", "namespace_id": made.json()["group_id"]}
    ).json()
    copied = call_as(svc, "GET", f"/projects/{created['id']}/push_rule", "root").json()
    assert copied["commit_message_regex"] == "^g:"
    assert (
        call_as(svc, "POST", "/groups/studio/push_rule", "root", {"member_check": True}).status
        == 422
    )
    assert call_as(svc, "DELETE", "/groups/studio/push_rule", "root").status == 204
    assert call_as(svc, "GET", "/groups/studio/push_rule", "root").status == 404
    assert call_as(svc, "GET", "/groups/studio/push_rule", "gina").status == 403


def test_push_rule_scenario_key() -> None:
    svc = FakeService(
        {
            "extends": "default",
            "projects": [
                {"path": "alice/rules", "push_rule": {"deny_delete_tag": True, "max_file_size": 3}}
            ],
        }
    )
    rule = call_as(svc, "GET", "/projects/alice%2Frules/push_rule", "alice").json()
    assert (rule["deny_delete_tag"], rule["max_file_size"], rule["member_check"]) == (
        True,
        3,
        False,
    )


def test_python_gitlab_push_rules(svc: FakeService) -> None:
    gl = gitlab.Gitlab(svc.url, private_token="root-token", session=svc.requests_session())
    project = gl.projects.get("studio/app")
    project.pushrules.create({"deny_delete_tag": True, "commit_message_regex": "^feat:"})
    rule = project.pushrules.get()
    assert (rule.deny_delete_tag, rule.commit_message_regex) == (True, "^feat:")
    rule.member_check = True
    rule.save()
    assert project.pushrules.get().member_check is True
    with pytest.raises(gitlab.GitlabCreateError) as caught:
        project.commits.create(
            {
                "branch": "main",
                "commit_message": "nope",
                "actions": [{"action": "create", "file_path": "n", "content": "n"}],
            }
        )
    assert caught.value.response_code == 400
    project.pushrules.delete()


@pytest.mark.skipif(shutil.which("git") is None, reason="git CLI not installed")
def test_git_pushes_obey_the_rule(svc: FakeService, tmp_path: Path) -> None:
    call_as(svc, "POST", f"{APP}/repository/tags", "root", {"tag_name": "v1", "ref": "main"})
    _rule(svc, commit_message_regex="^feat:", deny_delete_tag=True)
    git = Git(tmp_path)
    work = tmp_path / "app"
    with svc.serve() as url:
        git.ok("clone", "-q", remote(url, "studio/app.git", "root-token"), "app")
        git.commit_file(work, "b.txt", "b\n", "chore: nope")
        refused = git.run("push", "origin", "main", cwd=work)
        assert refused.returncode != 0
        assert "Commit message does not follow the pattern '^feat:'" in refused.stderr
        git.ok("commit", "-q", "--amend", "-m", "feat: yes", cwd=work)
        git.ok("push", "-q", "origin", "main", cwd=work)
        deleted = git.run("push", "origin", ":refs/tags/v1", cwd=work)
        assert deleted.returncode != 0
        assert "You cannot delete a tag" in deleted.stderr
    tree = call_as(svc, "GET", f"{APP}/repository/tree", "root").json()
    assert "b.txt" in [entry["name"] for entry in tree]
    assert call_as(svc, "GET", f"{APP}/repository/tags/v1", "root").status == 200


def test_group_rule_is_edited(svc: FakeService) -> None:
    made = call_as(svc, "POST", "/groups/studio/push_rule", "root", {"commit_message_regex": "^g:"})
    assert made.status == 201
    edited = call_as(
        svc, "PUT", "/groups/studio/push_rule", "root", {"max_file_size": 5, "member_check": True}
    )
    assert edited.status == 200, edited.json()
    answer = edited.json()
    assert (answer["commit_message_regex"], answer["max_file_size"], answer["member_check"]) == (
        "^g:",
        5,
        True,
    )
    assert call_as(svc, "GET", "/groups/studio/push_rule", "root").json() == answer
    refused = call_as(svc, "PUT", "/groups/studio/push_rule", "gina", {"member_check": False})
    assert refused.status == 403
    assert call_as(svc, "GET", "/groups/studio/push_rule", "root").json() == answer
