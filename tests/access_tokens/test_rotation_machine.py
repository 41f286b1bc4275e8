"""A state machine over personal and project access tokens: issue, rotate (by id, by
``self``, by the project's endpoint), revoke; after every step exactly the secrets the
model holds active authenticate, and the ``state`` filters list the model's tokens."""

from __future__ import annotations

from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from support.calls import call
from support.services import stamp

WEBSITE = "/projects/acme%2Fwebsite/access_tokens"


class Tokens(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp("default", "default")  # checked for 500s after the test
        # id -> (secret, kind, active); alice's "laptop" token is id 2 in the default scenario
        self.model: dict[int, tuple[str, str, bool]] = {2: ("alice-token", "personal", True)}

    def _keep(self, body: Any, kind: str) -> None:
        self.model[body["id"]] = (body["token"], kind, True)

    def _retire(self, token_id: int) -> None:
        secret, kind, _ = self.model[token_id]
        self.model[token_id] = (secret, kind, False)

    def _pick(self, data: st.DataObject, kind: str) -> int | None:
        ids = sorted(i for i, (_, k, _a) in self.model.items() if k == kind)
        return data.draw(st.sampled_from(ids)) if ids else None

    @rule()
    def issue_personal(self) -> None:
        made = call(self.svc, "POST", "/users/2/personal_access_tokens",
                    json_body={"name": "p", "scopes": ["api"]})  # fmt: skip
        assert made.status == 201
        self._keep(made.json(), "personal")

    @rule()
    def issue_project(self) -> None:
        made = call(self.svc, "POST", WEBSITE, json_body={"name": "b", "scopes": ["api"]})
        assert made.status == 201
        self._keep(made.json(), "project")

    @rule(data=st.data(), own=st.booleans())
    def rotate_personal(self, data: st.DataObject, own: bool) -> None:
        token_id = self._pick(data, "personal")
        if token_id is None:
            return
        secret, _, active = self.model[token_id]
        path = f"/personal_access_tokens/{token_id}/rotate"
        if own and active:
            response = call(self.svc, "POST", "/personal_access_tokens/self/rotate", token=secret)
        else:
            response = call(self.svc, "POST", path)
        if not active:
            assert (response.status, response.json()["message"]) == (
                400,
                "400 Bad request - token already revoked",
            )
            return
        assert response.status == 200
        self._retire(token_id)
        self._keep(response.json(), "personal")

    @rule(data=st.data())
    def rotate_project(self, data: st.DataObject) -> None:
        token_id = self._pick(data, "project")
        if token_id is None:
            return
        response = call(self.svc, "POST", f"{WEBSITE}/{token_id}/rotate")
        if not self.model[token_id][2]:
            assert response.status == 400
            return
        assert response.status == 200
        self._retire(token_id)
        self._keep(response.json(), "project")

    @precondition(lambda self: len(self.model) > 1)
    @rule(data=st.data())
    def revoke(self, data: st.DataObject) -> None:
        token_id = data.draw(st.sampled_from(sorted(self.model)))
        kind = self.model[token_id][1]
        path = (
            f"/personal_access_tokens/{token_id}" if kind == "personal" else f"{WEBSITE}/{token_id}"
        )
        assert call(self.svc, "DELETE", path).status == 204
        self._retire(token_id)

    @invariant()
    def secrets_authenticate_as_the_model_says(self) -> None:
        for secret, _, active in self.model.values():
            status = call(self.svc, "GET", "/personal_access_tokens/self", token=secret).status
            assert status == (200 if active else 401)

    @invariant()
    def state_filters_agree(self) -> None:
        for state, wanted in (("active", True), ("inactive", False)):
            personal = call(self.svc, "GET", "/personal_access_tokens",
                            query={"user_id": "2", "state": state, "per_page": "100"})  # fmt: skip
            project = call(self.svc, "GET", WEBSITE, query={"state": state, "per_page": "100"})
            expected = sorted(i for i, (_, _k, a) in self.model.items() if a == wanted)
            assert sorted(t["id"] for t in [*personal.json(), *project.json()]) == expected


Tokens.TestCase.settings = settings(max_examples=25, stateful_step_count=12, deadline=None)
TestTokens = Tokens.TestCase
