"""GitHub-compatible sandbox server (loopback HTTP over a dulwich repository). Qt-free."""

from modu_desktop.sandbox.faults import FAILURE_KINDS, Faults
from modu_desktop.sandbox.server import Sandbox
from modu_desktop.sandbox.users import PRACTICE_USER, SandboxUser

__all__ = ["FAILURE_KINDS", "PRACTICE_USER", "Faults", "Sandbox", "SandboxUser"]
