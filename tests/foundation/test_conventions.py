"""Conventions every endpoint follows (seed 000 §2.1, §7; FIDELITY "Error bodies"):
routing on the raw path, 404/405 bodies, HEAD, JSON content type, body decoding and the
framework's exact 400 messages for declared parameters."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fakeservice import FakeService
from fakeservice.core.errors import ParamError
from fakeservice.web.http import MAX_BODY_BYTES, Response
from fakeservice.web.params import (
    INT,
    STR,
    AllOrNone,
    AtLeastOne,
    ExactlyOne,
    MutuallyExclusive,
    Param,
    validate,
)

from .helpers import TRACKED, raw_request

ROUTE_404 = {"error": "404 Not Found"}


# -- routing on the raw path ------------------------------------------------------------------


@pytest.mark.parametrize("encoded", ["acme%2Fwebsite", "acme%2fwebsite", "ACME%2FWebsite", "1"])
def test_project_id_is_an_integer_or_the_encoded_path(svc: FakeService, encoded: str) -> None:
    response = svc.request("GET", f"/projects/{encoded}")
    assert response.status == 200
    assert response.json()["id"] == 1
    assert response.json()["path_with_namespace"] == "acme/website"


def test_nested_namespace_path_is_one_encoded_segment(svc: FakeService) -> None:
    response = svc.request("GET", "/projects/acme%2Fplatform%2Fapi", token="alice-token")
    assert response.status == 200
    assert response.json()["path_with_namespace"] == "acme/platform/api"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/projects/acme/website"),
        ("PUT", "/projects/acme/website"),
        ("DELETE", "/projects/acme/website"),
        ("GET", "/projects/acme/platform/api"),
        ("GET", "/nothing-here"),
        ("GET", "/users/1/nothing"),
    ],
)
def test_an_unencoded_path_matches_no_endpoint(svc: FakeService, method: str, path: str) -> None:
    response = svc.request(method, path, token="root-token")
    assert response.status == 404
    assert response.json() == ROUTE_404
    assert response.header("Content-Type") == "application/json"


@pytest.mark.parametrize("path", ["/projects", "/api/v3/projects", "/api/v4", "/"])
def test_paths_outside_api_v4_match_nothing(svc: FakeService, path: str) -> None:
    response = raw_request(svc, "GET", path)
    assert response.status == 404
    assert response.json() == ROUTE_404


def test_the_api_prefix_is_required_verbatim(svc: FakeService) -> None:
    assert raw_request(svc, "GET", "/api/v4/projects").status == 200
    assert raw_request(svc, "GET", "/api/v4/projects/").status == 404


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/version", "GET, HEAD"),
        ("POST", "/version", "GET, HEAD"),
        ("PATCH", "/users", "GET, HEAD, POST"),
        ("GET", "/users/1/block", "POST"),
        ("HEAD", "/users/1/block", "POST"),
        ("POST", "/projects/1", "DELETE, GET, HEAD, PUT"),
    ],
)
def test_wrong_method_on_a_known_path_is_405_with_allow(
    svc: FakeService, method: str, path: str, allow: str
) -> None:
    response = svc.request(method, path, token="root-token")
    assert response.status == 405
    assert response.header("Allow") == allow
    if method != "HEAD":
        assert response.json() == {"error": "405 Not Allowed"}


def test_405_is_decided_before_authentication(svc: FakeService) -> None:
    response = svc.request("DELETE", "/version", token="no-such-token")
    assert response.status == 405


# -- HEAD and content types ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "token"),
    [("/projects/1", None), ("/users?per_page=5&page=2", "root-token"), ("/user", "alice-token")],
)
def test_head_answers_like_get_without_a_body(svc: FakeService, path: str, token: str) -> None:
    get = svc.request("GET", path, token=token)
    head = svc.request("HEAD", path, token=token)
    assert get.status == head.status == 200
    assert head.body == b""
    assert get.body != b""
    assert head.headers == get.headers


def test_head_of_an_error_keeps_the_status(svc: FakeService) -> None:
    missing = svc.request("HEAD", "/projects/9999")
    assert (missing.status, missing.body) == (404, b"")
    anonymous = svc.request("HEAD", "/user")
    assert (anonymous.status, anonymous.body) == (401, b"")


@pytest.mark.parametrize(
    ("method", "path", "token", "status"),
    [
        ("GET", "/projects/1", None, 200),
        ("GET", "/users", "root-token", 200),
        ("POST", "/projects", "alice-token", 400),
        ("GET", "/user", None, 401),
        ("POST", "/users", "alice-token", 403),
        ("GET", "/projects/9999", None, 404),
        ("GET", "/no/such/route", None, 404),
        ("DELETE", "/version", None, 405),
    ],
)
def test_every_answer_with_a_body_is_json(
    svc: FakeService, method: str, path: str, token: str | None, status: int
) -> None:
    response = svc.request(method, path, token=token)
    assert response.status == status
    assert response.header("Content-Type") == "application/json"
    response.json()


def test_no_content_answers_have_no_body(svc: FakeService) -> None:
    response = svc.request("DELETE", "/users/3", token="root-token")
    assert response.status == 204
    assert response.body == b""


# -- bodies ----------------------------------------------------------------------------------------


def post_raw_project(svc: FakeService, body: bytes, content_type: str) -> Response:
    """``POST /projects`` as alice with ``body`` sent as it is, of ``content_type``."""
    return svc.request(
        "POST", "/projects", body=body, headers={"Content-Type": content_type}, token="alice-token"
    )


@pytest.mark.parametrize(
    "body",
    [b"{bad", b'{"name": ', b"[1, 2]", b'"a string"', b"42", b"null", b'{"name":"\xff"}', b"\x00"],
)
def test_a_malformed_json_body_is_400(svc: FakeService, body: bytes) -> None:
    response = post_raw_project(svc, body, "application/json")
    assert response.status == 400
    assert isinstance(response.json()["error"], str)
    assert svc.request("GET", "/users/2/projects").json()[0]["path"] == "dotfiles"


def test_a_malformed_multipart_body_is_400(svc: FakeService) -> None:
    no_boundary = post_raw_project(svc, b"garbage", "multipart/form-data")
    assert no_boundary.status == 400
    broken = post_raw_project(svc, b"garbage", "multipart/form-data; boundary=xyz")
    assert broken.status == 400


def test_a_multipart_body_is_decoded(svc: FakeService) -> None:
    body = (
        b"--xyz\r\n"
        b'Content-Disposition: form-data; name="name"\r\n\r\n'
        b"From Multipart\r\n"
        b"--xyz\r\n"
        b'Content-Disposition: form-data; name="topics[]"\r\n\r\n'
        b"one\r\n"
        b"--xyz--\r\n"
    )
    response = post_raw_project(svc, body, "multipart/form-data; boundary=xyz")
    assert response.status == 201
    assert response.json()["name"] == "From Multipart"
    assert response.json()["topics"] == ["one"]


@pytest.fixture(scope="module")
def fuzz_svc() -> Iterator[FakeService]:
    service = FakeService()
    TRACKED.append(service)
    yield service
    TRACKED.remove(service)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=st.one_of(
        st.binary(max_size=64),
        st.text(max_size=64).map(str.encode),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(
                    st.sampled_from(["name", "path", "topics", "visibility", "x"]),
                    inner,
                    max_size=3,
                )
            ),
            max_leaves=6,
        ).map(lambda v: json.dumps(v).encode()),
    ),
    ctype=st.sampled_from(
        ["application/json", "application/x-www-form-urlencoded", "text/plain", ""]
    ),
)
def test_no_body_produces_a_server_error(fuzz_svc: FakeService, body: bytes, ctype: str) -> None:
    headers = {"Content-Type": ctype} if ctype else {}
    for method, path in (("POST", "/projects"), ("PUT", "/users/2"), ("POST", "/users")):
        response = fuzz_svc.request(method, path, body=body, headers=headers, token="root-token")
        assert response.status < 500
    assert fuzz_svc.server_errors == []


def test_an_oversized_body_is_413(svc: FakeService) -> None:
    body = b"{" + b" " * MAX_BODY_BYTES + b"}"
    response = post_raw_project(svc, body, "application/json")
    assert response.status == 413
    assert response.json() == {"message": "413 Request Entity Too Large"}


# -- query and body together ----------------------------------------------------------------------


def test_query_and_body_parameters_are_merged(svc: FakeService) -> None:
    response = svc.request(
        "POST", "/projects?name=From%20Query", json_body={"description": "d"}, token="alice-token"
    )
    assert response.status == 201
    assert (response.json()["name"], response.json()["description"]) == ("From Query", "d")


def test_the_body_wins_over_the_query(svc: FakeService) -> None:
    response = svc.request(
        "POST", "/projects?name=query&path=q", json_body={"name": "body"}, token="alice-token"
    )
    assert response.status == 201
    assert (response.json()["name"], response.json()["path"]) == ("body", "q")


def test_path_parameters_win_over_query_and_body(svc: FakeService) -> None:
    response = svc.request("GET", "/users/2?id=3", token="root-token")
    assert response.json()["username"] == "alice"


def test_form_encoded_bodies_are_decoded(svc: FakeService) -> None:
    response = svc.request(
        "POST", "/projects", data={"name": "Formed", "visibility": "public"}, token="alice-token"
    )
    assert response.status == 201
    assert (response.json()["name"], response.json()["visibility"]) == ("Formed", "public")


# -- arrays and hashes -----------------------------------------------------------------------------


def test_array_parameters_in_the_query(svc: FakeService) -> None:
    response = svc.request(
        "POST", "/projects?name=arr&topics[]=one&topics[]=two", token="alice-token"
    )
    assert response.status == 201
    assert response.json()["topics"] == ["one", "two"]


def test_array_parameters_in_a_form_body(svc: FakeService) -> None:
    response = post_raw_project(
        svc, b"name=arr&topics%5B%5D=x&topics%5B%5D=y", "application/x-www-form-urlencoded"
    )
    assert response.json()["topics"] == ["x", "y"]


def test_array_parameters_in_a_json_body(svc: FakeService) -> None:
    response = svc.request(
        "POST", "/projects", json_body={"name": "arr", "topics": ["j", "k"]}, token="alice-token"
    )
    assert response.json()["topics"] == ["j", "k"]


def test_hash_parameters_in_the_query(make_service: Any) -> None:
    service = make_service(
        {
            "users": [
                {"username": "root", "admin": True, "tokens": [{"token": "root-token"}]},
                {"username": "red", "custom_attributes": {"team": "red", "site": "a"}},
                {"username": "blue", "custom_attributes": {"team": "blue", "site": "a"}},
            ]
        }
    )
    one = service.request("GET", "/users?custom_attributes[team]=red", token="root-token")
    assert [u["username"] for u in one.json()] == ["red"]
    both = service.request(
        "GET",
        "/users?custom_attributes%5Bsite%5D=a&custom_attributes%5Bteam%5D=blue",
        token="root-token",
    )
    assert [u["username"] for u in both.json()] == ["blue"]


def test_a_scalar_where_an_array_of_hashes_is_expected_is_400(svc: FakeService) -> None:
    response = svc.request("GET", "/users?custom_attributes=plain", token="root-token")
    assert response.status == 400
    assert response.json() == {"error": "custom_attributes is invalid"}


# -- booleans, integers, datetimes -------------------------------------------------------------------


@pytest.fixture
def one_archived(svc: FakeService) -> FakeService:
    assert svc.request("POST", "/projects/1/archive", token="root-token").status == 201
    return svc


@pytest.mark.parametrize(
    "word", ["true", "TRUE", "True", "tRuE", "1", "t", "T", "yes", "YES", "on"]
)
def test_true_in_any_case(one_archived: FakeService, word: str) -> None:
    response = one_archived.request("GET", f"/projects?archived={word}")
    assert [p["id"] for p in response.json()] == [1]


@pytest.mark.parametrize("word", ["false", "FALSE", "False", "0", "f", "no", "No", "off"])
def test_false_in_any_case(one_archived: FakeService, word: str) -> None:
    response = one_archived.request("GET", f"/projects?archived={word}&per_page=100")
    ids = [p["id"] for p in response.json()]
    assert 1 not in ids
    assert len(ids) == 31


def test_json_booleans_are_booleans(one_archived: FakeService) -> None:
    response = one_archived.request(
        "PUT", "/projects/1", json_body={"lfs_enabled": False}, token="root-token"
    )
    assert response.json()["lfs_enabled"] is False


@pytest.mark.parametrize("word", ["maybe", "2", "truthy"])
def test_a_bad_boolean_is_400(svc: FakeService, word: str) -> None:
    response = svc.request("GET", f"/projects?archived={word}")
    assert response.status == 400
    assert response.json() == {"error": "archived is invalid"}


@pytest.mark.parametrize("value", ["abc", "1.5", "1e3", "0x10"])
def test_a_bad_integer_is_400(svc: FakeService, value: str) -> None:
    response = svc.request("GET", f"/projects?min_access_level={value}", token="alice-token")
    assert response.status == 400
    assert response.json() == {"error": "min_access_level is invalid"}


def test_an_integer_path_parameter_that_is_not_one_is_400(svc: FakeService) -> None:
    response = svc.request("GET", "/users/alice", token="root-token")
    assert response.status == 400
    assert response.json() == {"error": "id is invalid"}


def test_a_value_outside_the_allowed_values_is_400(svc: FakeService) -> None:
    response = svc.request("GET", "/projects?min_access_level=25", token="alice-token")
    assert response.status == 400
    assert response.json() == {"error": "min_access_level does not have a valid value"}


@pytest.mark.parametrize(
    "value", ["yesterday", "2026-13-01T00:00:00Z", "2026-01-01T25:00:00Z", "01/02/2026"]
)
def test_a_bad_datetime_is_400(svc: FakeService, value: str) -> None:
    response = svc.request("GET", "/users", query={"created_before": value}, token="root-token")
    assert response.status == 400
    assert response.json() == {"error": "created_before is invalid"}


@pytest.mark.parametrize(
    "value", ["2026-01-01T09:00:00Z", "2026-01-01T10:00:00+01:00", "2026-01-01T09:00:00.000Z"]
)
def test_iso_8601_datetimes_are_accepted(svc: FakeService, value: str) -> None:
    response = svc.request("GET", "/users", query={"created_before": value}, token="root-token")
    assert response.status == 200
    assert response.header("X-Total") == "45"


def test_several_parameter_errors_are_joined(svc: FakeService) -> None:
    response = svc.request(
        "GET", "/projects?order_by=nope&min_access_level=x&visibility=secret", token="alice-token"
    )
    assert response.status == 400
    assert response.json() == {
        "error": "order_by does not have a valid value, visibility does not have a valid value, "
        "min_access_level is invalid"
    }


def test_missing_and_blank_parameters(svc: FakeService) -> None:
    missing = svc.request(
        "POST", "/users/2/personal_access_tokens", json_body={}, token="root-token"
    )
    assert missing.json() == {"error": "name is missing, scopes is missing"}
    blank = svc.request(
        "POST",
        "/users/2/personal_access_tokens",
        json_body={"name": " ", "scopes": ["api"]},
        token="root-token",
    )
    assert blank.json() == {"error": "name is empty"}


def test_a_json_null_for_a_required_parameter_reaches_its_validation(svc: FakeService) -> None:
    cases = [
        (
            "POST",
            "/groups",
            {"name": None, "path": "nulls"},
            {"message": {"name": ["can't be blank"]}},
        ),
        (
            "POST",
            "/users/2/personal_access_tokens",
            {"name": "t", "scopes": None},
            {"error": "scopes does not have a valid value"},
        ),
        (
            "PUT",
            "/projects/1/custom_attributes/colour",
            {"value": None},
            {"message": {"value": ["can't be blank"]}},
        ),
    ]
    for method, path, body, error in cases:
        response = svc.request(method, path, json_body=body, token="root-token")
        assert (response.status, response.json()) == (400, error)
    assert svc.request("GET", "/groups/nulls", token="root-token").status == 404


@pytest.mark.parametrize("path", ["/users", "/projects", "/groups"])
def test_a_json_null_takes_the_declared_default(svc: FakeService, path: str) -> None:
    nulled = svc.request("GET", path, json_body={"order_by": None}, token="root-token")
    assert nulled.status == 200
    assert nulled.json() == svc.request("GET", path, token="root-token").json()


def test_a_json_null_outside_the_allowed_values_is_not_given(svc: FakeService) -> None:
    response = svc.request(
        "PUT",
        "/projects/1",
        json_body={"visibility": None, "description": None},
        token="root-token",
    )
    assert response.status == 200
    assert response.json()["visibility"] == "public"
    assert response.json()["description"] is None


# -- group constraints --------------------------------------------------------------------------------


def test_at_least_one_of(svc: FakeService) -> None:
    response = svc.request("POST", "/projects", json_body={"description": "x"}, token="alice-token")
    assert response.status == 400
    assert response.json() == {
        "error": "name, path are missing, at least one parameter must be provided"
    }


def test_at_least_one_of_after_missing_parameters(svc: FakeService) -> None:
    response = svc.request("POST", "/users", json_body={}, token="root-token")
    assert response.status == 400
    assert response.json() == {
        "error": "email is missing, name is missing, username is missing, password, "
        "reset_password, force_random_password are missing, at least one parameter must be "
        "provided"
    }


def test_all_or_none_of(svc: FakeService) -> None:
    response = svc.request("GET", "/users?provider=github", token="root-token")
    assert response.status == 400
    assert response.json() == {"error": "extern_uid, provider provide all or none of parameters"}


DECLARED = (Param("author_id", INT), Param("author_username", STR), Param("a"), Param("b"))


def _error(constraint: Any, raw: dict[str, Any]) -> str | None:
    try:
        validate(DECLARED, raw, (constraint,))
    except ParamError as error:
        return error.body["error"]
    return None


def test_mutually_exclusive() -> None:
    rule = MutuallyExclusive(("author_id", "author_username"))
    assert _error(rule, {"author_id": "1", "author_username": "x"}) == (
        "author_id, author_username are mutually exclusive"
    )
    assert _error(rule, {"author_id": "1"}) is None
    assert _error(rule, {}) is None


def test_exactly_one_of() -> None:
    rule = ExactlyOne(("a", "b"))
    assert _error(rule, {}) == "a, b are missing, exactly one parameter must be provided"
    assert _error(rule, {"a": "1", "b": "2"}) == "a, b are mutually exclusive"
    assert _error(rule, {"b": "2"}) is None


def test_constraint_errors_follow_parameter_errors() -> None:
    rule = AtLeastOne(("a", "b"))
    assert _error(rule, {"author_id": "x"}) == (
        "author_id is invalid, a, b are missing, at least one parameter must be provided"
    )
    assert _error(AllOrNone(("a", "b")), {"b": ""}) == "a, b provide all or none of parameters"


# -- odd input never produces a 500 -----------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        "/projects/%C2%B2",
        "/projects/%FF%FE",
        "/users/%C2%B2/status",
        "/users/%C2%B2/projects",
        "/users?page=9999999999999999999",
        "/users?per_page=99999999999999999999",
        "/projects?sudo=%C2%B2",
        "/users?search[a]=b",
        "/users?page[]=1",
        "/projects?private_token[]=x",
    ],
)
def test_odd_input_is_answered_without_a_server_error(svc: FakeService, path: str) -> None:
    response = svc.request("GET", path, token="root-token")
    assert response.status in (200, 400, 404)
    assert svc.server_errors == []


@pytest.mark.parametrize(
    ("path", "body", "expected"),
    [
        (
            "/projects",
            {"name": "p" * 256},
            {
                "name": ["is too long (maximum is 255 characters)"],
                "path": ["is too long (maximum is 255 characters)"],
            },
        ),
        (
            "/groups",
            {"name": "N" * 256, "path": "g" * 256},
            {
                "path": ["is too long (maximum is 255 characters)"],
                "name": ["is too long (maximum is 255 characters)"],
            },
        ),
        (
            "/users",
            {
                "name": "x",
                "username": "u" * 256,
                "email": "u@example.com",
                "password": "long enough",
            },
            {"username": ["is too long (maximum is 255 characters)"]},
        ),
        (
            "/users/2/personal_access_tokens",
            {"name": "t", "scopes": []},
            {"scopes": ["can't be blank"]},
        ),
    ],
)
def test_model_limits_answer_400_and_change_nothing(
    svc: FakeService, path: str, body: dict[str, object], expected: dict[str, list[str]]
) -> None:
    before = svc.snapshot()
    response = svc.request("POST", path, json_body=body, token="root-token")
    assert (response.status, response.json()) == (400, {"message": expected})
    assert svc.snapshot() == before


def test_names_of_255_characters_are_accepted(svc: FakeService) -> None:
    response = svc.request("POST", "/projects", json_body={"name": "p" * 255}, token="root-token")
    assert response.status == 201 and response.json()["path"] == "p" * 255
