"""Cross-origin headers as api.github.com sends them, so a browser page (the web admin) can call
the sandbox directly: every response allows any origin and exposes GitHub's headers; a preflight
`OPTIONS` gets 204 with the allowed request headers, methods and a one-day max-age.
"""

from __future__ import annotations

# Exactly the documented list (github/docs, "Using CORS and JSONP to make cross-origin requests").
EXPOSE_HEADERS = (
    "ETag, Link, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, X-OAuth-Scopes, "
    "X-Accepted-OAuth-Scopes, X-Poll-Interval"
)
# GitHub's documented list, plus X-GitHub-Api-Version: the web admin sends that header from a
# browser and works against github.com, so GitHub's preflight must allow it (the docs' example
# predates the header; github/docs#24706 reported the block in 2023 and was closed).
ALLOW_HEADERS = (
    "Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, "
    "If-Unmodified-Since, X-Requested-With, X-GitHub-Api-Version"
)
ALLOW_METHODS = "GET, POST, PATCH, PUT, DELETE"
MAX_AGE = "86400"


def cors_headers() -> dict[str, str]:
    """On every response, whatever its status."""
    return {"Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": EXPOSE_HEADERS}


def preflight_headers() -> dict[str, str]:
    """The 204 answer to a preflight `OPTIONS` (no authentication, any path)."""
    return {
        **cors_headers(),
        "Access-Control-Allow-Headers": ALLOW_HEADERS,
        "Access-Control-Allow-Methods": ALLOW_METHODS,
        "Access-Control-Max-Age": MAX_AGE,
        "Vary": "Accept-Encoding, Accept, X-Requested-With",
    }
