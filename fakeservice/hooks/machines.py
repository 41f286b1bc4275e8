"""The delivery machine: a hook delivery is ``queued``, then ``sending`` while its POST is
under way, then ``delivered`` (a 2xx answer) or ``failed`` (another status, or no answer).
"""

from __future__ import annotations

from fakeservice.core.machine import Machine

DELIVERY_MACHINE = Machine(
    "hook_delivery",
    ("queued", "sending", "delivered", "failed"),
    (
        ("send", "queued", "sending"),
        ("succeed", "sending", "delivered"),
        ("fail", "sending", "failed"),
    ),
    attribute="state",
)
