"""Fixture modules of tests/test_fuzz.py."""
