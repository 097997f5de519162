"""Plugin modules used by tests/api/test_untrusted.py: each one misbehaves, or leaves a trace, when imported.

``TRACE`` lists the modules of this package that were imported (a refused plugin must not be there).
"""

from __future__ import annotations

TRACE: list[str] = []
