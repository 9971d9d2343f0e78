import numpy as np
import pytest

from drmshim.memory import FlatMemory, GPUFault


def test_flat_memory_gather_scatter_round_trip():
    mem = FlatMemory(4096)
    vas = mem.base + np.arange(0, 64, 4, dtype=np.uint64)
    mem.scatter(vas, np.arange(16, dtype=np.uint32) * 3, "USC")
    assert (mem.gather(vas, np.uint32, "USC") == np.arange(16) * 3).all()
    assert mem.read(mem.base + 4, 4, "USC").view(np.uint32)[0] == 3


def test_flat_memory_duplicate_scatter_last_wins():
    mem = FlatMemory(64)
    mem.scatter(np.full(3, mem.base, dtype=np.uint64), np.array([1, 2, 3], dtype=np.uint32), "USC")
    assert mem.gather(np.array([mem.base], dtype=np.uint64), np.uint32, "USC")[0] == 3


def test_flat_memory_faults_name_address_unit_and_direction():
    mem = FlatMemory(64)
    with pytest.raises(GPUFault) as e:
        mem.gather(np.array([mem.base + 64], dtype=np.uint64), np.uint32, "TEX")
    assert e.value.info.address == mem.base + 64 and e.value.info.unit == "TEX" and e.value.info.is_read
    soft = FlatMemory(64, soft_faults=True)
    out = soft.gather(np.array([soft.base, soft.base + 1000], dtype=np.uint64), np.uint32, "USC")
    assert out[1] == 0 and soft.faults[0].address == soft.base + 1000
    soft.scatter(np.array([soft.base + 1000], dtype=np.uint64), np.array([7], dtype=np.uint32), "USC")
    assert not soft.faults[-1].is_read
