"""A plugin module beside support/raising_base.toml that fails when imported."""

RATIO = 1 // 0
