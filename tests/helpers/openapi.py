"""GitHub's published OpenAPI description as a response validator (for the conformance test).

Source: the npm package `@octokit/openapi`, which carries GitHub's own `api.github.com.json`
(generated from github/rest-api-description, MIT). It is installed through
`tests/helpers/nodetools.py` into the test cache, so a fresh clone needs only Node/npm (CI has
them).
The description is OpenAPI 3.0; its schemas become JSON Schema (draft 4, which OpenAPI 3.0
follows) by turning `nullable: true` into "or null". `jsonschema` does the validating.

Deliberate exceptions, each where GitHub's description is narrower than GitHub itself:
- `oneOf` is read as `anyOf`: several of GitHub's `oneOf`s have overlapping members (the PUT
  contents 409 is `basic-error` *or* `repository-rule-violation-error`, neither with a required
  field, so every error body matches both and no real answer could pass).
- Statuses any route may answer, though most operations do not list them: 304 to a
  conditional GET (GitHub's "use conditional requests" best practice; the sandbox's ETags),
  400 for an unknown `X-GitHub-Api-Version`, 401 (bad or missing token), 403/429 (rate
  limits), 5xx (outages) — each body still checked against `basic-error`.
- Error answers whose status is documented without a body (the org-membership 404s) are
  still checked against `basic-error`: GitHub's errors always carry one.
- 404 on `GET …/actions/runs/{run_id}` for an unknown run and on `GET …/tarball/{ref}` for an
  unknown ref: the description lists only 200 (302), but GitHub answers a missing resource with
  404 everywhere.
- `GET …/git/refs/{ref}`: GitHub still answers the legacy read alias, which the description
  no longer lists; it is checked against `GET …/git/ref/{ref}`.
- `GET …/contents` (no path) is the same operation as `…/contents/{path}` with an empty path.
The description is the 2022-11-28 one, so answers to requests for another API version are
not checked here. Not part of api.github.com at all, so not checked: `/raw/…` (the role of
raw.githubusercontent.com), `/codeload/…` (the archive download links, codeload.github.com's
role) and the `/_sandbox/…` test hooks.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jsonschema import Draft4Validator

SPEC_PACKAGES = {"@octokit/openapi": "23.0.2"}
SPEC_FILE = "node_modules/@octokit/openapi/generated/api.github.com.json"

ANY_ROUTE_STATUSES = {400, 401, 403, 429, 500, 502, 503}
ALIASES = {
    ("GET", "/repos/{owner}/{repo}/git/refs/{ref}"): "/repos/{owner}/{repo}/git/ref/{ref}",
    ("GET", "/repos/{owner}/{repo}/contents"): "/repos/{owner}/{repo}/contents/{path}",
}
EXTRA_STATUSES = {
    ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}"): {404},
    # GitHub answers an unknown run or job (or a log not there yet) 404, undocumented too.
    ("GET", "/repos/{owner}/{repo}/actions/runs/{run_id}/jobs"): {404},
    ("GET", "/repos/{owner}/{repo}/actions/jobs/{job_id}/logs"): {404},
    ("GET", "/repos/{owner}/{repo}/tarball/{ref}"): {404},
}
NOT_API = ("/raw/", "/_sandbox/", "/codeload/")


def to_json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects → JSON Schema draft 4 (see the module docstring)."""
    if isinstance(node, list):
        return [to_json_schema(n) for n in node]
    if not isinstance(node, dict):
        return node
    out = {k: to_json_schema(v) for k, v in node.items() if k not in ("nullable", "discriminator")}
    if "oneOf" in out:
        out["anyOf"] = out.pop("oneOf")
    if node.get("nullable") is True and "$ref" not in node:
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        return {"anyOf": [out, {"type": "null"}]}
    return out


@dataclass
class Finding:
    method: str
    template: str
    status: int
    problem: str

    def __str__(self) -> str:
        return f"{self.method} {self.template} → {self.status}: {self.problem}"


class Description:
    def __init__(self, path: Path) -> None:
        spec = json.loads(path.read_text("utf-8"))
        self.paths: dict[str, Any] = spec["paths"]
        self.components: dict[str, Any] = to_json_schema(spec["components"])
        self.raw_components: dict[str, Any] = spec["components"]

    def operation(self, method: str, template: str) -> dict[str, Any] | None:
        template = ALIASES.get((method, template), template)
        return self.paths.get(template, {}).get(method.lower())

    def _response(self, op: dict[str, Any], status: int) -> dict[str, Any] | None:
        found = op["responses"].get(str(status))
        if found is not None and "$ref" in found:
            found = self.raw_components["responses"][found["$ref"].rsplit("/", 1)[-1]]
        return found

    def schema_errors(self, schema: dict[str, Any], body: Any) -> list[str]:
        root = {"components": self.components, "allOf": [to_json_schema(schema)]}
        validator = Draft4Validator(root)
        return [
            f"{'/'.join(str(p) for p in e.absolute_path) or '(body)'}: {e.message[:300]}"
            for e in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
        ][:8]

    def check(
        self,
        method: str,
        template: str,
        status: int,
        content_type: str,
        body: Any,
        accept: str = "",
    ) -> list[Finding]:
        """Problems of one answer: an undocumented status, or a body that breaks the schema.
        `accept` picks the documented media type when the request asked for a custom one
        (GitHub labels those answers `application/json` too)."""
        head = method == "HEAD"  # answered like GET, without a body
        method = "GET" if head else method
        op = self.operation(method, template)
        if op is None:
            return [Finding(method, template, status, "operation not in GitHub's description")]
        documented = self._response(op, status)
        if documented is None:
            allowed = ANY_ROUTE_STATUSES | EXTRA_STATUSES.get((method, template), set())
            if status == 304 and method == "GET":
                return []
            if status not in allowed:
                listed = ", ".join(op["responses"])
                return [Finding(method, template, status, f"status not documented ({listed})")]
            documented = self.raw_components["responses"]["forbidden"]  # basic-error
        content = documented.get("content")
        if head:
            return (
                [] if body in (None, b"", "") else [Finding(method, template, status, "HEAD body")]
            )
        if not content and status >= 400 and body not in (None, b"", ""):
            # GitHub's errors always carry a JSON body, listed or not (e.g. the org 404s).
            content = self.raw_components["responses"]["forbidden"]["content"]
        if not content:
            if body not in (None, b"", ""):
                return [Finding(method, template, status, "body where none is documented")]
            return []
        media = content_type.split(";")[0].strip()
        if "json" not in media:
            return []  # raw bytes (application/vnd.github.raw): nothing to validate
        asked = accept.split(";")[0].strip()
        entry = content.get(asked) or content.get(media) or content.get("application/json")
        if entry is None or "schema" not in entry:
            return [Finding(method, template, status, f"media type {media} not documented")]
        return [
            Finding(method, template, status, problem)
            for problem in self.schema_errors(entry["schema"], body)
        ]
