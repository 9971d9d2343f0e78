"""GET_PARAMS, GET_TIME, VERSION, GET_CAP and the GPU configurations, through the seam."""

from __future__ import annotations

import errno
import time

import pytest

import uapi
from drmshim.kernel import GPU_CONFIGS, Kernel, select_config

from .helpers import ptr

ffi = uapi.ffi


def _params(dev, size=None):
    params = ffi.new("struct drm_asahi_params_global *")
    dev.ioctl("ASAHI_GET_PARAMS", pointer=ptr(params), size=ffi.sizeof(params[0]) if size is None else size)
    return params


def test_get_params_describes_the_gpu(dev):
    p = _params(dev)
    assert p.vm_start == 0x4000
    assert p.vm_end == (1 << 39) - 0x8000
    assert p.max_commands_per_submission == 64
    assert p.command_timestamp_frequency_hz == 1_000_000_000
    assert p.gpu_generation == 13
    assert p.num_clusters_total >= 1
    assert p.core_masks[0] == (1 << p.num_cores_per_cluster) - 1
    assert p.core_masks[p.num_clusters_total] == 0
    assert p.vm_kernel_min_size == 0x2000_0000


def test_get_params_writes_at_most_size_bytes(dev):
    params = ffi.new("struct drm_asahi_params_global *", {"gpu_generation": 0xDEAD})
    dev.ioctl("ASAHI_GET_PARAMS", pointer=ptr(params), size=8)  # only the features word
    assert params.gpu_generation == 0xDEAD


@pytest.mark.parametrize("fields", [{"param_group": 1}, {"pad": 1}])
def test_get_params_rejects_nonzero_group_and_pad(dev, fields):
    params = ffi.new("struct drm_asahi_params_global *")
    assert dev.errno_of("ASAHI_GET_PARAMS", pointer=ptr(params), size=592, **fields) == errno.EINVAL


def test_get_params_null_pointer_is_efault(dev):
    assert dev.errno_of("ASAHI_GET_PARAMS", pointer=0, size=592) == errno.EFAULT


def test_configurations_are_data_selected_by_name(open_private):
    _, small = open_private(config="m1")
    _, large = open_private(config="m1max")
    ps, pl = _params(small), _params(large)
    assert (ps.num_clusters_total, pl.num_clusters_total) == (1, 4)
    assert ps.chip_id == 0x8103 and pl.chip_id == 0x6001
    assert pl.core_masks[3] == 0xFF and ps.core_masks[1] == 0


def test_configuration_from_environment(monkeypatch):
    monkeypatch.setenv("SHIMGL_GPU", "m1max")
    assert select_config().num_clusters_total == 4
    monkeypatch.setenv("SHIMGL_GPU", "voodoo2")
    with pytest.raises(ValueError, match="SHIMGL_GPU"):
        select_config()
    assert set(GPU_CONFIGS) == {"m1", "m1max"}


def test_soft_faults_feature_is_reported(open_private):
    _, d = open_private(soft_faults=True)
    assert _params(d).features == uapi.DRM_ASAHI_FEATURE_SOFT_FAULTS
    _, d = open_private(soft_faults=False)
    assert _params(d).features == 0


def test_get_time_is_monotonic_ns(dev):
    before = time.monotonic_ns()
    t1 = dev.ioctl("ASAHI_GET_TIME").gpu_timestamp
    t2 = dev.ioctl("ASAHI_GET_TIME").gpu_timestamp
    assert before <= t1 <= t2 <= time.monotonic_ns()
    assert dev.errno_of("ASAHI_GET_TIME", flags=1) == errno.EINVAL


def test_version_reports_the_asahi_driver(dev):
    name = ffi.new("char[16]")
    v = dev.ioctl("VERSION", name=name, name_len=16)
    assert ffi.string(name) == b"asahi" and v.name_len == 5
    v = dev.ioctl("VERSION")  # lengths only
    assert v.name_len == 5 and v.desc_len > 0


def test_get_cap(dev):
    assert dev.ioctl("GET_CAP", capability=uapi.DRM_CAP_SYNCOBJ).value == 1
    assert dev.ioctl("GET_CAP", capability=uapi.DRM_CAP_SYNCOBJ_TIMELINE).value == 1
    assert dev.ioctl("GET_CAP", capability=uapi.DRM_CAP_PRIME).value == 3
    assert dev.errno_of("GET_CAP", capability=0x7777) == errno.EINVAL


def test_unknown_ioctl_is_einval(dev):
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, uapi.drm.ioc("WR", ord("d"), 0x9F, 8), ffi.new("char[8]"))
    assert info.value.errno == errno.EINVAL


def test_shorter_user_struct_is_zero_extended(dev):
    # A GET_TIME issued with an 8-byte struct (flags only): the kernel zero-extends it.
    request = uapi.drm.ioc("WR", ord("d"), 0x41, 8)
    arg = ffi.new("__u64[1]")
    assert uapi.ioctl(dev.fd, request, arg) == 0


def test_kernel_accepts_an_executor_or_a_factory():
    class Executor:
        def run_vertex(self, c): pass
        def run_fragment(self, c): pass
        def run_compute(self, c): pass

    executor = Executor()
    assert Kernel(gpu=executor, arena_size_B=1 << 24).gpu is executor
    assert isinstance(Kernel(gpu=lambda kernel: Executor(), arena_size_B=1 << 24).gpu, Executor)


def test_set_gpu_factory_applies_to_new_kernels():
    import drmshim
    from drmshim.firmware import NullExecutor

    class Marker(NullExecutor):
        pass

    drmshim.set_gpu_factory(lambda kernel: Marker())
    try:
        assert isinstance(Kernel(arena_size_B=1 << 24).gpu, Marker)
    finally:
        drmshim.set_gpu_factory(None)
    assert not isinstance(Kernel(arena_size_B=1 << 24).gpu, Marker)


def test_the_seam_finds_drmshim_by_entry_point():
    import subprocess
    import sys

    code = ("import sys, uapi; fd = uapi.open('/dev/dri/renderD128'); "
            "print('drmshim' in sys.modules, type(uapi.seam._files[fd][1]).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "DRMFile"]


def test_an_argument_that_is_not_memory_is_efault(dev):
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, uapi.DRM_IOCTL_ASAHI_GET_TIME, 1234)
    assert info.value.errno == errno.EFAULT
