"""The REST endpoints GitHub documents, one module per family (contents, read-only git database
and metadata, archives, releases), and the fake deploy's build step behind the job-log endpoint."""
