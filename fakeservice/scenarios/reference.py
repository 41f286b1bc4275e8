"""The scenario format's reference for the default service (``docs/scenarios.md``).

``python -m fakeservice.scenarios.reference`` prints it: the built-in keys of
:mod:`.spec` and the keys and actions the default areas register.
"""

from __future__ import annotations

from fakeservice.areas import compose
from fakeservice.scenarios import spec


def reference() -> str:
    """The Markdown reference of the scenario format, as the default areas extend it."""
    return spec.reference(compose().sections)


if __name__ == "__main__":
    print(reference(), end="")
