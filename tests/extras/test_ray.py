"""The Ray backend of ``tamalou.simulate`` (the ``ray`` extra): the same statistics as inline, a ruleset
from a file carried to Ray's workers.

The tests share one local Ray instance (two CPUs, no dashboard), started once for the module: Ray takes a
few seconds to start.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from optional import require
from simulated import FREE_SEVENS, assert_right, by_hand, house
from tamalou.simulation import simulate

require("ray", "ray")


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    import ray

    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_same_statistics(ray_cluster: Any) -> None:
    args: dict[str, Any] = {"bots": ["cautious", "random"], "games": 24, "seed": 5, "players": 3}
    inline = simulate("french", **args, backend="inline")
    on_ray = simulate("french", **args, backend="ray")
    assert on_ray.run.backend == "ray" and on_ray.run.workers == 2
    assert inline.statistics() == on_ray.statistics()
    one_chunk_each = simulate("french", **args, backend="ray", workers=1)
    assert one_chunk_each.statistics() == inline.statistics()
    spec = ["french", "multi-round"]
    assert simulate(spec, "random", games=2, backend="ray").statistics() == (
        simulate(spec, "random", games=2, backend="inline").statistics()
    )


def test_a_ruleset_from_a_file_travels_to_ray_workers(ray_cluster: Any, tmp_path: Path) -> None:
    path = house(tmp_path, "free_sevens_ray", FREE_SEVENS)
    on_ray = simulate(str(path), "random", games=6, players=2, backend="ray")
    assert on_ray.variant == "free_sevens_ray"
    assert_right(on_ray, by_hand(str(path), ["random"], 6, 0, 2))
