"""Leaves a trace when imported: a refused plugin module must never get this far."""

from __future__ import annotations

from untrusted_plugins import TRACE

TRACE.append(__name__)
