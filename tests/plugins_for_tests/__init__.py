"""Plugin modules used by tests/api/test_plugins.py (named in TOML files through ``plugins = [...]``).

Each module overrides one hook with an answer no built-in rule gives, so a test can tell whether
the hook was asked. Tests put the ``tests`` folder on ``sys.path`` to import them as
``plugins_for_tests.<module>``.
"""
