"""The PNU-Modu edit lock, interoperable with the web admin (Qt-free): ``wire`` (the lock file
and its commit messages), ``model`` (statuses, views, outcomes and their codes), ``results``
and ``news`` (what an operation reports, and what that says), ``words`` (who holds a lock,
said one way), ``client`` (what it needs from GitHub), ``manager`` (the protocol's one door)
over ``reading``, ``writing``, ``acquiring``, ``renewing``, ``releasing`` and ``verifying``;
``held`` and ``leftover`` (our own locks after a crash).

Wire contract: ``docs/lock-protocol.md``. In short: ``.locks/{docId}.lock.json``
on the content branch, 2-space JSON without a trailing newline, Unix *seconds*, the web admin's
key orders and commit messages, and every write carries the blob sha it last saw.

Where this module is deliberately better than the web admin:

* the lock is read through the git database (tree + blob by sha), never the Contents API cache;
* the same login in another window or on another machine is *not* taken over silently
  (``MINE_OTHER_SESSION``) - we tell them apart with our own ``sessionId`` key;
* staleness is judged in *server* time (the client's ``ServerClock``), and the timestamps we
  write are server-clock seconds, so a skewed local clock neither steals live locks nor keeps
  dead ones;
* a heartbeat looks before it writes (one conditional tree read, then one conditional PUT with
  the sha we last wrote): a take-over is noticed with at most two reads and no write meant to
  fail, and explained ("X took it at T" / "released"); network failures are counted ("expires
  within N minutes");
* ``verify`` lets the editor refuse a save once the lock is gone.

The manager only needs five client methods (see :class:`LockClient`); the real implementation is
``modu_desktop.core.github.client.GitHubClient``.
"""
