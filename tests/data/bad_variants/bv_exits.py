"""A plugin module that exits when imported."""

import sys

sys.exit(3)
