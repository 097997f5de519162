"""Exits the interpreter when imported."""

from __future__ import annotations

raise SystemExit(3)
