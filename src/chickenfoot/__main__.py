"""Runs the command line: ``python -m chickenfoot``."""

import sys

from .cli import main

sys.exit(main())
