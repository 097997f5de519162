"""The hypothesis settings profiles of ``tamalou.testing``: ``"tamalou"``, ``"tamalou-ci"`` and
``"tamalou-thorough"`` (registered when this module is imported), ``property_settings`` (the settings
of a ``@given`` test from one of them) and the settings a ``RoundMachine`` runs with.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, settings

_SLOW_CHECKS = (HealthCheck.too_slow, HealthCheck.data_too_large)
#: The profiles this module registers: name -> the settings they change from hypothesis's defaults.
_PROFILES: dict[str, dict[str, Any]] = {
    "tamalou": {"max_examples": 50, "stateful_step_count": 30},
    "tamalou-ci": {"max_examples": 100, "stateful_step_count": 30, "derandomize": True, "print_blob": True},
    "tamalou-thorough": {"max_examples": 1000, "stateful_step_count": 80},
}


def register_profiles() -> None:
    """Register the hypothesis settings profiles ``"tamalou"``, ``"tamalou-ci"`` and
    ``"tamalou-thorough"`` (done when this module is imported; calling it again changes nothing).

    Every one has no deadline (a round checked at every step takes longer than hypothesis's 200 ms)
    and the health checks about slow or large data off (a game is many draws), and shrinks one
    failure only. ``"tamalou"`` runs 50 examples (30 steps per state machine run); ``"tamalou-ci"``
    100, derandomized (the same examples on every run, no flaky CI), printing the blob that
    reproduces a failure; ``"tamalou-thorough"`` 1000, with state machine runs of 80 steps.

    >>> register_profiles()
    >>> settings.get_profile("tamalou").deadline is None
    True
    >>> settings.get_profile("tamalou-ci").derandomize
    True
    """
    base = settings.get_profile("default")
    for name, changes in _PROFILES.items():
        settings.register_profile(
            name,
            base,
            deadline=None,
            suppress_health_check=[*base.suppress_health_check, *_SLOW_CHECKS],
            report_multiple_bugs=False,
            phases=[p for p in base.phases if p is not Phase.explain],
            **changes,
        )


register_profiles()


def _active_profile() -> str:
    """The loaded profile if it is one of tamalou's, else ``"tamalou"``."""
    try:
        current = settings.get_current_profile_name()
    except AssertionError:  # pragma: no cover - hypothesis always has a current profile
        return "tamalou"
    return current if current in _PROFILES else "tamalou"


def property_settings(profile: str | None = None, **changes: Any) -> settings:
    """A ``hypothesis.settings`` from one of tamalou's profiles (``None``: the loaded profile if it is
    one of tamalou's, else ``"tamalou"``) with ``changes``; use it as a decorator of a ``@given``
    test. Tamalou's profiles have no deadline, so a test that plays whole rounds and checks every step
    is not failed (or made flaky) by hypothesis's 200 ms deadline.

    >>> from hypothesis import given
    >>> import random
    >>> from tamalou.testing import RandomChooser, check_conservation, games, play_out
    >>> @property_settings(max_examples=5)
    ... @given(games("french", max_actions=20))
    ... def test_conservation(game):
    ...     check_conservation(play_out(game, RandomChooser(random.Random(game.seed)), check_every=1))
    >>> test_conservation()
    """
    return settings(settings.get_profile(profile or _active_profile()), **changes)


def machine_settings() -> settings:
    """The settings of a ``RoundMachine``: the loaded profile if it is tamalou's; else the
    ``"tamalou"`` profile when hypothesis's default profile is loaded, or the loaded profile with no
    deadline and the slow health checks off."""
    current = settings.get_current_profile_name()
    if current in _PROFILES or current == "default":
        return settings.get_profile(_active_profile())
    loaded = settings.get_profile(current)
    return settings(loaded, deadline=None, suppress_health_check=[*loaded.suppress_health_check, *_SLOW_CHECKS])
