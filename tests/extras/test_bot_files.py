"""Bot files read as files from outside (issue 47): a ``.npz`` is refused from its members' headers before
anything large is allocated, and every file of the wrong shape is a one-line ``ValueError``.

Needs numpy (the ``ai`` extra). The JSON files' refusals are in ``tests/api/test_linear_bot.py``.
"""

from __future__ import annotations

import io
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from optional import require

np = require("ai", "numpy")

from tamalou.bots import LinearBot, make_bot  # noqa: E402
from tamalou.bots.linear import FEATURES, MAX_FILE_BYTES  # noqa: E402

KEEPER = [0.0] * len(FEATURES)


def npy(array: object) -> bytes:
    out = io.BytesIO()
    np.lib.format.write_array(out, np.asarray(array), allow_pickle=True)
    return out.getvalue()


def lying_npy(shape: tuple[int, ...], data: bytes = b"") -> bytes:
    """A ``.npy`` member whose header declares ``shape`` of float64 and whose data is ``data`` (a crafted file)."""
    out = io.BytesIO()
    header = {"descr": "<f8", "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(out, header)
    return out.getvalue() + data


def npz(path: Path, members: dict[str, bytes], compress: bool = True) -> Path:
    method = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
    with zipfile.ZipFile(path, "w", method) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_saved_npz_reads_back(tmp_path: Path) -> None:
    path = LinearBot(KEEPER).save(tmp_path / "agent.npz")
    assert LinearBot.load(path).weights == KEEPER


@pytest.mark.timing  # (its verdict is the clock's: it runs alone, in the timing tier)
def test_a_crafted_npz_declaring_200_million_numbers_is_refused_in_under_a_second_and_100_mb(tmp_path: Path) -> None:
    """The review's file: 1.6 MB, a ``weights`` array declaring 200 M float64 (1.6 GB), deflated. It is refused
    by its size; one under the size cap declaring the same is refused from its header."""
    features = npy(np.asarray(FEATURES))
    big = npz(
        tmp_path / "big.npz",
        {"weights.npy": lying_npy((200_000_000,), bytes(1_600_000)), "features.npy": features},
        compress=False,
    )
    small = npz(
        tmp_path / "small.npz", {"weights.npy": lying_npy((200_000_000,), bytes(40_000)), "features.npy": features}
    )
    assert big.stat().st_size > 1_600_000 and small.stat().st_size < MAX_FILE_BYTES
    for path in (big, small):
        tracemalloc.start()
        started = time.perf_counter()
        with pytest.raises(ValueError) as refused:
            make_bot(f"file:{path}")
        took = time.perf_counter() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert took < 1.0 and peak < 100_000_000, (took, peak)
        assert "\n" not in str(refused.value) and "not a trained bot's file" in str(refused.value)
    assert "(200000000,)" in str(refused.value)


@pytest.mark.parametrize(
    "members",
    [
        {"weights.npy": npy([1.0] * len(FEATURES))},  # no features
        {"weights.npy": npy([[1.0] * len(FEATURES)]), "features.npy": npy(np.asarray(FEATURES))},  # 2-D
        {"weights.npy": npy(np.asarray(["a"] * len(FEATURES))), "features.npy": npy(np.asarray(FEATURES))},
        {"weights.npy": npy(np.asarray([{}] * len(FEATURES), dtype=object)), "features.npy": npy(np.asarray(FEATURES))},
        {"weights.npy": npy([1.0] * len(FEATURES)), "features.npy": npy(np.arange(len(FEATURES)))},
        {"weights.npy": npy([1.0] * len(FEATURES)), "features.npy": npy(np.asarray(FEATURES)), "x.npy": b""},
        {"weights.npy": b"\x93NUMPY garbage", "features.npy": npy(np.asarray(FEATURES))},
        {"weights.npy": lying_npy((len(FEATURES),), b"\0" * 8), "features.npy": npy(np.asarray(FEATURES))},  # short
        {"weights.npy": npy([float("nan")] * len(FEATURES)), "features.npy": npy(np.asarray(FEATURES))},
    ],
    ids=["one-array", "2d", "texts", "pickled-objects", "numbered", "extra", "garbage", "truncated", "nan"],
)
def test_every_npz_of_the_wrong_shape_is_one_line(tmp_path: Path, members: dict[str, bytes]) -> None:
    path = npz(tmp_path / "agent.npz", members)
    with pytest.raises(ValueError) as refused:
        make_bot(f"file:{path}")
    assert "\n" not in str(refused.value) and "not a trained bot's file" in str(refused.value), refused.value


def test_files_that_are_not_zips_are_one_line(tmp_path: Path) -> None:
    for data in (b"", b"PK\x03\x04 not really", b"\0" * 1000):
        path = tmp_path / "agent.npz"
        path.write_bytes(data)
        with pytest.raises(ValueError, match="not a trained bot's file") as refused:
            make_bot(f"file:{path}")
        assert "\n" not in str(refused.value)
