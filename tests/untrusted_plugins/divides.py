"""Fails when imported."""

from __future__ import annotations

1 / 0  # noqa: B018
