"""The documented success schemas match what the views really answer: every GET of the
document that answers 200 in the default scenario (with a finished pipeline) conforms,
and enough of them answer 200 for this to mean something."""

from __future__ import annotations

import itertools

from fakeservice import FakeService

from .helpers import Operation, operations, problems, template

# Values of path parameters that name records of the default scenario.
PATH_VALUES: dict[str, tuple[str, ...]] = {
    "id": ("acme%2Fwebsite", "acme", "1", "2"),
    "user_id": ("2", "1"),
    "id_or_username": ("alice",),
    "job_id": ("1", "2"),
    "pipeline_id": ("1",),
    "branch": ("main",),
    "name": ("main", "production"),
    "sha": ("main",),
    "file_path": ("README.md",),
    "ref_name": ("main",),
    "repo_path": ("acme/website",),
    "token_id": ("1",),
    "cluster_id": ("1",),
}


def _paths(operation: Operation) -> list[str]:
    names = operation.endpoint.path_names
    choices = [PATH_VALUES.get(name, ("1",)) for name in names]
    found = []
    for combo in itertools.islice(itertools.product(*choices), 8):
        path = operation.path
        for name, value in zip(names, combo, strict=True):
            path = path.replace("{" + name + "}", value)
        found.append(path)
    return found


def test_every_get_that_answers_200_conforms_to_its_schema() -> None:
    service = FakeService.from_template(template())
    answered = []
    for operation in operations():
        if operation.method != "get":
            continue
        for path in _paths(operation):
            response = service.request("GET", path, token="root-token")
            if response.status == 200:
                assert problems(operation, response) == [], (path, problems(operation, response))
                answered.append(operation.id)
                break
    assert service.server_errors == []
    assert len(answered) >= 60, answered
