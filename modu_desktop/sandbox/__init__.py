"""GitHub-compatible sandbox server (loopback HTTP over a dulwich repository). Qt-free."""

from .faults import FAILURE_KINDS, Faults
from .server import Sandbox
from .users import PRACTICE_USER, SandboxUser

__all__ = ["FAILURE_KINDS", "PRACTICE_USER", "Faults", "Sandbox", "SandboxUser"]
