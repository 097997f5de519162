"""The pytest plugin moved to the top-level module ``_tamalou_pytest_plugin`` (so that pytest loading it imports
nothing of tamalou until it is used); this path keeps ``EventStream`` importable for this release. Its entry point
(``pytest11``) keeps the name ``tamalou``: ``-p no:tamalou`` still disables it."""

from __future__ import annotations

from _tamalou_pytest_plugin import DEFAULT_VARIANT, INSTALL, EventStream

__all__ = ["DEFAULT_VARIANT", "INSTALL", "EventStream"]
