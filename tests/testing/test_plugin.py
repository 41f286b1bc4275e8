"""The pytest plugin, run inside pytester: fixtures, the scenario marker, per-test
isolation, per-process caching, ini options, and pytest-xdist."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

SCENARIO = """\
users:
  - username: boss
    admin: true
    tokens: [{token: admin-token, scopes: [api, sudo]}]
  - username: member
    tokens: [{token: member-token}]
groups:
  - path: team
    members: [{user: member, role: maintainer}]
"""


def test_fixtures_are_available_from_the_entry_point(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import gitlab
        import httpx
        import requests

        def test_service(fake_service):
            assert fake_service.request("GET", "/user", token="root-token").json()["username"] == "root"

        def test_requests(fake_service, fake_requests):
            assert isinstance(fake_requests, requests.Session)
            answer = fake_requests.get(fake_service.url + "/api/v4/version", headers={"PRIVATE-TOKEN": "root-token"})
            assert answer.json()["version"]

        def test_gitlab(fake_gitlab):
            assert isinstance(fake_gitlab, gitlab.Gitlab)
            fake_gitlab.auth()
            assert fake_gitlab.user.username == "root"

        def test_httpx(fake_httpx):
            assert isinstance(fake_httpx, httpx.Client)
            assert fake_httpx.get("/api/v4/user", headers={"PRIVATE-TOKEN": "alice-token"}).json()["username"] == "alice"

        def test_server(fake_server):
            assert fake_server.url.startswith("http://127.0.0.1:")
            answer = httpx.get(fake_server.url + "/api/v4/user", headers={"PRIVATE-TOKEN": "root-token"})
            assert answer.json()["web_url"].startswith(fake_server.url)
            assert fake_server.service.journal.count(path="/user") == 1

        def test_respx(fake_respx, fake_service):
            with httpx.Client() as client:
                answer = client.get(fake_service.url + "/api/v4/user", headers={"PRIVATE-TOKEN": "root-token"})
            assert answer.json()["username"] == "root"
            fake_respx.get("https://elsewhere.test/ping").respond(204)
            assert httpx.get("https://elsewhere.test/ping").status_code == 204

        def test_factory(fake_service_factory, fake_service):
            other = fake_service_factory()
            assert other is not fake_service
            assert other.request("GET", "/user", token="root-token").status == 200

        def test_bug_in_the_fake_is_a_warning(fake_service):
            fake_service.server_errors.append(RuntimeError("boom"))
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "--strict-markers")
    result.assert_outcomes(passed=8, warnings=1)
    result.stdout.fnmatch_lines(
        ["*FakeServiceWarning: fakeservice answered 1 request(s) with a 500*"]
    )


def test_marker_picks_the_scenario_and_state_is_fresh(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", team=SCENARIO)
    pytester.makepyfile(
        """
        import pytest

        pytestmark = pytest.mark.fakeservice_scenario("team.yaml")

        def test_first_creates_a_project(fake_service):
            made = fake_service.request("POST", "/projects", token="member-token", json_body={"name": "p"})
            assert made.status == 201
            fake_service.faults.add("/**", status=500)

        def test_second_starts_clean(fake_service):
            assert fake_service.request("GET", "/projects/member%2Fp", token="admin-token").status == 404
            assert fake_service.faults.rules == []
            assert len(fake_service.journal) == 1

        def test_admin_token_drives_fake_gitlab(fake_gitlab):
            fake_gitlab.auth()
            assert fake_gitlab.user.username == "boss"

        @pytest.mark.fakeservice_scenario("default")
        def test_closest_marker_wins(fake_service):
            assert fake_service.request("GET", "/user", token="root-token").status == 200
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly")
    result.assert_outcomes(passed=4)


def test_scenario_is_built_once_per_process(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", team=SCENARIO)
    pytester.makepyfile(
        """
        import pytest
        from fakeservice.service import FakeService
        from fakeservice.testing import templates

        pytestmark = pytest.mark.fakeservice_scenario("team")
        built = []
        original = FakeService.template

        @pytest.fixture(autouse=True)
        def count_builds(monkeypatch):
            def counting(self):
                built.append(1)
                return original(self)
            monkeypatch.setattr(FakeService, "template", counting)

        @pytest.mark.parametrize("n", range(5))
        def test_many(fake_service, n):
            assert fake_service.request("GET", "/user", token="admin-token").status == 200

        def test_built_once():
            assert len(built) <= 1
        """
    )
    pytester.runpytest("-p", "no:cacheprovider", "-p", "no:randomly").assert_outcomes(passed=6)


def test_bad_scenario_fails_the_test_with_the_problems(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", broken="users:\n  - usernme: x\n")
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.fakeservice_scenario("broken.yaml")
        def test_uses_it(fake_service):
            pass

        @pytest.mark.fakeservice_scenario("nowhere.yaml")
        def test_missing(fake_service):
            pass
        """
    )
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=2)
    output = result.stdout.str()
    assert "fakeservice: scenario 'broken.yaml' does not load:" in output
    assert (
        "broken.yaml:2: users[0].usernme: unknown key 'usernme' (did you mean 'username'?)"
        in output
    )
    assert "no scenario file 'nowhere.yaml'" in output
    assert "Traceback" not in output


def test_ini_option_sets_the_default_scenario(pytester: pytest.Pytester) -> None:
    pytester.makefile(".yaml", team=SCENARIO)
    pytester.makeini("[pytest]\nfakeservice_scenario = team.yaml\nfakeservice_server_timeout = 5\n")
    pytester.makepyfile(
        """
        def test_default_from_ini(fake_service):
            assert fake_service.request("GET", "/user", token="admin-token").status == 200
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_marker_is_registered(pytester: pytest.Pytester) -> None:
    config = pytester.parseconfigure()
    assert any(
        line.startswith("fakeservice_scenario(path_or_name):") for line in config.getini("markers")
    )


def test_safe_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import httpx
        import pytest

        @pytest.mark.parametrize("n", range(4))
        def test_parallel(fake_server, n):
            made = httpx.post(
                fake_server.url + "/api/v4/projects",
                headers={"PRIVATE-TOKEN": "root-token"},
                json={"name": "same-name"},
            )
            assert made.status_code == 201
        """
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2")
    result.assert_outcomes(passed=4)
