"""The determinism check's fresh processes: a pool started once and reused (not a process a game), and none of
them outlives the process that started it, whether it ends or is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from tamalou.verify import check_determinism, determinism, random_playout

#: A process that starts the pool and a run's fresh processes, prints their pids, then waits to be killed.
STARTER = """
import sys, time
from tamalou.verify import check_determinism, random_playout
from tamalou.verify import determinism
import tamalou
check_determinism(random_playout("french", players=2, seed=1))
run = determinism.RunDeterminism(tamalou.load_variant("french"), [(s, 4) for s in range(400)], salt=1)
pids = [p.process.pid for p in determinism._POOL.values()] + [f.process.pid for f in run.fresh]
print(" ".join(map(str, pids)), flush=True)
time.sleep(60)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie (ended, not yet reaped by init) counts as gone
        return stat.read().split(") ")[-1][:1] != "Z"


def test_the_pool_is_started_once_and_reused() -> None:
    determinism.stop_pool()
    check_determinism(random_playout("french", players=2, seed=1), processes=2)
    first = {s: p.process.pid for s, p in determinism._POOL.items()}
    for seed in range(2, 6):
        check_determinism(random_playout("french", players=2, seed=seed), processes=2)
    assert {s: p.process.pid for s, p in determinism._POOL.items()} == first and len(first) == 2
    determinism.stop_pool()
    assert not any(alive(pid) for pid in first.values())


@pytest.mark.timing
def test_no_fresh_process_outlives_a_killed_parent() -> None:
    parent = subprocess.Popen([sys.executable, "-c", STARTER], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    pids = [int(p) for p in parent.stdout.readline().split()]
    assert len(pids) == determinism.PROCESSES + 2 and all(alive(pid) for pid in pids)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10  # (a bound for a loaded machine: they go at once)
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(alive(pid) for pid in pids)
