"""A harmless module that a damaged snapshot names as a plugin: being imported is its only effect.

tests/properties/test_fuzz.py checks that restoring a snapshot (untrusted storage) never imports it: whether
``fuzz_data.snapshot_plugin`` is in ``sys.modules`` afterwards tells.
"""

from __future__ import annotations

IMPORTED = True
