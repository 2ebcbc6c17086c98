"""The GitHub REST client: requests, value types, errors, the server clock, archives and the blob
cache."""
