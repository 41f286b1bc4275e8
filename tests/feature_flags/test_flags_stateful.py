"""A state machine of feature flag writes (create, rename, toggle, delete, refused
duplicates) checked after every step against a plain model: the list in name order, the
``scope`` filters and each flag's state."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule
from support.calls import body, call_as
from support.services import stamp

from tests.feature_flags.conftest import WORLD

FLAGS = "/projects/dan%2Fshop/feature_flags"
NAMES = st.sampled_from(["alpha", "beta", "gamma", "delta", "dark_mode", "new_checkout"])


class FlagMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.svc = stamp(WORLD, "feature-flags-world")
        self.model: dict[str, bool] = {"dark_mode": False, "new_checkout": True}

    @rule(name=NAMES, active=st.booleans())
    def create(self, name: str, active: bool) -> None:
        response = call_as(self.svc, "POST", FLAGS, "dan", body={"name": name, "active": active})
        if name in self.model:
            assert (response.status, body(response)) == (
                400,
                {"message": ["Name has already been taken"]},
            )
        else:
            assert response.status == 201
            self.model[name] = active

    @rule(name=NAMES, active=st.booleans())
    def toggle(self, name: str, active: bool) -> None:
        response = call_as(self.svc, "PUT", f"{FLAGS}/{name}", "dan", body={"active": active})
        if name in self.model:
            assert body(response)["active"] is active
            self.model[name] = active
        else:
            assert response.status == 404

    @rule(old=NAMES, new=NAMES)
    def rename(self, old: str, new: str) -> None:
        response = call_as(self.svc, "PUT", f"{FLAGS}/{old}", "dan", body={"name": new})
        if old not in self.model:
            assert response.status == 404
        elif new != old and new in self.model:
            assert response.status == 400
        else:
            assert response.status == 200
            self.model[new] = self.model.pop(old)

    @rule(name=NAMES)
    def delete(self, name: str) -> None:
        response = call_as(self.svc, "DELETE", f"{FLAGS}/{name}", "dan")
        assert response.status == (200 if name in self.model else 404)
        self.model.pop(name, None)

    @invariant()
    def lists_agree(self) -> None:
        listed = body(call_as(self.svc, "GET", FLAGS, "dan"))
        assert [(f["name"], f["active"]) for f in listed] == sorted(self.model.items())
        for scope, state in (("enabled", True), ("disabled", False)):
            chosen = body(call_as(self.svc, "GET", FLAGS, "dan", scope=scope))
            assert [f["name"] for f in chosen] == sorted(
                n for n, a in self.model.items() if a is state
            )


FlagMachine.TestCase.settings = settings(max_examples=25, stateful_step_count=15, deadline=None)
TestFlagMachine = FlagMachine.TestCase
