"""GitHub's REST conventions, shared by every endpoint: request, response and error objects, the
JSON shapes of its answers, pagination and time filters, and the CORS headers."""
