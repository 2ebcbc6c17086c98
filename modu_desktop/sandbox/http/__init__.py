"""Serving: the threaded loopback server, the route table (GitHub's URL templates → endpoint
handlers) and its router, and the per-route request counters."""
