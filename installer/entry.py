"""Frozen-app entry script: the same function as the `modu-desktop` console script."""

import multiprocessing
import sys

from modu_desktop.__main__ import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
