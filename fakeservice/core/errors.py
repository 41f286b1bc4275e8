"""Domain errors: what an operation raises when it refuses, and the body the service answers with.

Each error knows its HTTP status and its JSON body exactly as the real service words it
(see FIDELITY.md); the web layer only serialises them. Nothing here imports web code.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


class ApiError(Exception):
    """An error with a status, a JSON body (or raw text) and extra headers."""

    status: int = 500

    def __init__(
        self,
        body: Any = None,
        *,
        status: int | None = None,
        headers: dict[str, str] | None = None,
        content_type: str = "application/json",
    ) -> None:
        if status is not None:
            self.status = status
        self.body: Any = body if body is not None else {"message": "500 Internal Server Error"}
        self.headers = dict(headers or {})
        self.content_type = content_type
        super().__init__(f"{self.status} {self.body!r}")


class NotFound(ApiError):
    """404. ``NotFound("Project")`` gives ``404 Project Not Found``; ``NotFound()`` gives ``404 Not found``."""

    status = 404

    def __init__(self, kind: str | None = None, *, message: Any = None) -> None:
        if message is None:
            message = f"404 {kind} Not Found" if kind else "404 Not found"
        super().__init__({"message": message})


def or_404(record: T | None, kind: str | None = None) -> T:
    """``record``, or :class:`NotFound` (of ``kind``) when there is none."""
    if record is None:
        raise NotFound(kind)
    return record


class RouteNotFound(ApiError):
    """404 for a path that matches no endpoint."""

    status = 404

    def __init__(self) -> None:
        super().__init__({"error": "404 Not Found"})


class Unauthorized(ApiError):
    status = 401

    def __init__(self, message: str = "401 Unauthorized") -> None:
        super().__init__({"message": message})


class InvalidToken(ApiError):
    """401 for an expired or revoked token, with the OAuth ``WWW-Authenticate`` challenge."""

    status = 401

    def __init__(self, description: str) -> None:
        challenge = (
            'Bearer realm="Protected by OAuth 2.0", error="invalid_token", '
            f'error_description="{description}"'
        )
        super().__init__(
            {"error": "invalid_token", "error_description": description},
            headers={"WWW-Authenticate": challenge},
        )


class Forbidden(ApiError):
    """403, optionally with a reason: ``403 Forbidden - <reason>``."""

    status = 403

    def __init__(self, reason: str | None = None) -> None:
        message = f"403 Forbidden - {reason}" if reason else "403 Forbidden"
        super().__init__({"message": message})


class InsufficientScope(ApiError):
    status = 403

    def __init__(self, scopes: list[str] | tuple[str, ...]) -> None:
        super().__init__(
            {
                "error": "insufficient_scope",
                "error_description": "The request requires higher privileges than provided by the access token.",
                "scope": " ".join(scopes),
            }
        )


class BadRequest(ApiError):
    """400 ``{"message": "400 Bad request - <reason>"}``, or a literal message with ``raw=True``."""

    status = 400

    def __init__(self, reason: str | None = None, *, raw: bool = False) -> None:
        if raw and reason is not None:
            message: Any = reason
        else:
            message = f"400 Bad request - {reason}" if reason else "400 Bad request"
        super().__init__({"message": message})


class MissingAttribute(BadRequest):
    """400 ``400 Bad request - "title" not given``."""

    def __init__(self, name: str) -> None:
        super().__init__(f'"{name}" not given')


class ParamError(ApiError):
    """400 ``{"error": "a is missing, b is invalid"}`` for declared-parameter failures."""

    status = 400

    def __init__(self, messages: list[str] | str) -> None:
        if isinstance(messages, str):
            messages = [messages]
        self.messages = list(messages)
        super().__init__({"error": ", ".join(self.messages)})


class ValidationFailed(ApiError):
    """400 ``{"message": {"field": ["msg", ...]}}`` for model validation."""

    status = 400

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__({"message": errors})


class Conflict(ApiError):
    status = 409

    def __init__(self, message: str = "409 Conflict") -> None:
        super().__init__({"message": message})


class PreconditionFailed(ApiError):
    status = 412

    def __init__(self) -> None:
        super().__init__({"message": "412 Precondition Failed"})


class Unprocessable(ApiError):
    status = 422

    def __init__(self, message: Any = "422 Unprocessable Entity") -> None:
        super().__init__({"message": message})


class NotModified(ApiError):
    """304 with no body."""

    status = 304

    def __init__(self) -> None:
        super().__init__("", content_type="")


class MethodNotAllowed(ApiError):
    status = 405

    def __init__(self, allow: list[str] | None = None, error: str = "405 Not Allowed") -> None:
        headers = {"Allow": ", ".join(allow)} if allow else {}
        super().__init__({"error": error}, headers=headers)


class MalformedString(ApiError):
    """400 ``Bad Request`` (text) for a path or parameter that is not valid UTF-8, as the
    real service's malformed-strings guard answers before any routing."""

    status = 400

    def __init__(self) -> None:
        super().__init__("Bad Request", content_type="text/plain")


class PayloadTooLarge(ApiError):
    status = 413

    def __init__(self, message: str = "413 Request Entity Too Large") -> None:
        super().__init__({"message": message})


class RateLimited(ApiError):
    status = 429

    def __init__(self, headers: dict[str, str]) -> None:
        super().__init__("Retry later\n", headers=headers, content_type="text/plain")


class IllegalTransition(Exception):
    """A state machine was asked for an event its current state does not allow.

    The routes catch it and answer as the real service does for that resource
    (e.g. ``403 Forbidden - Job is not retryable``); uncaught it renders as a 400.
    """

    def __init__(self, machine: str, state: str, event: str) -> None:
        self.machine, self.state, self.event = machine, state, event
        super().__init__(f"{machine}: cannot {event} from {state}")
