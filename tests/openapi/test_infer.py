"""Schema inference: the merged schema of any JSON values describes each of them, and a
key is required only when every object had it."""

from __future__ import annotations

from typing import Any

import jsonschema
from hypothesis import given, settings
from hypothesis import strategies as st

from fakeservice.web.schemas.infer import finish, merge, shape, unfinish

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("abc"), inner, max_size=3)
    ),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(JSON, min_size=1, max_size=4))
def test_the_merged_schema_describes_every_value(values: list[Any]) -> None:
    merged = shape(values[0])
    for value in values[1:]:
        merged = merge(merged, unfinish(finish(shape(value))))
    published = finish(merged)
    for value in values:
        jsonschema.validate(value, published)
    assert unfinish(published) == unfinish(finish(unfinish(published)))


def test_required_keys_and_types() -> None:
    merged = finish(merge(shape({"a": 1, "b": None}), shape({"a": 2.5, "b": "x", "c": []})))
    assert merged == {
        "type": "object",
        "properties": {
            "a": {"type": "number"},
            "b": {"type": ["string", "null"]},
            "c": {"type": "array"},
        },
        "required": ["a", "b"],
    }
    assert finish(shape(None)) == {}
