"""Fixture modules of tests/properties/test_fuzz.py."""
