"""Transport-neutral request/response objects used by the API handlers."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from modu_desktop.sandbox.rest.payloads import error_body
from modu_desktop.sandbox.users import SandboxUser


@dataclass
class ApiRequest:
    method: str
    raw_path: str
    query: dict[str, list[str]]
    headers: dict[str, str]  # lower-case names
    body: bytes
    params: dict[str, str] = field(default_factory=dict)  # percent-decoded route params
    user: SandboxUser | None = None

    def arg(self, name: str) -> str | None:
        values = self.query.get(name)
        return values[-1] if values else None

    def has_arg(self, name: str) -> bool:
        return name in self.query

    def wants_raw(self) -> bool:
        return "application/vnd.github.raw" in self.headers.get("accept", "")

    def wants_object(self) -> bool:
        return "application/vnd.github.object" in self.headers.get("accept", "")

    def json_object(self) -> dict[str, Any]:
        """The body as a JSON object; GitHub answers 400 for unparsable or non-object JSON."""
        if not self.body.strip():
            return {}
        try:
            value = json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ApiError(400, "Problems parsing JSON") from exc
        if not isinstance(value, dict):
            raise ApiError(400, "Body should be a JSON object")
        return value


@dataclass
class ApiResponse:
    status: int
    body: Any = None  # JSON-able value, or bytes for raw media types, or None (no body)
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = "application/json; charset=utf-8"
    cacheable: bool = False  # GET answers get ETag/Cache-Control and may become 304

    def encoded(self) -> bytes:
        if self.body is None:
            return b""
        if isinstance(self.body, bytes):
            return self.body
        return json.dumps(self.body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


class ApiError(Exception):
    """Raised by handlers; becomes a GitHub-shaped error body."""

    def __init__(
        self, status: int, message: str, headers: dict[str, str] | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.extra = extra

    def response(self) -> ApiResponse:
        body = error_body(self.status, self.message, **self.extra)
        return ApiResponse(self.status, body, dict(self.headers))


def not_found() -> ApiError:
    return ApiError(404, "Not Found")
