"""SHIMGL_DEBUG=trace: every ioctl logged with its name, fields and result."""

from __future__ import annotations

import errno

import pytest

import uapi
from drmshim.capture import describe_request
from tests.drmshim.kernel.helpers import Dev, private_device


def test_request_names_come_from_the_table():
    assert describe_request(uapi.DRM_IOCTL_ASAHI_SUBMIT) == "ASAHI_SUBMIT"
    assert describe_request(uapi.DRM_IOCTL_SYNCOBJ_WAIT) == "SYNCOBJ_WAIT"
    assert describe_request(0x1234) == "ioctl 0x1234"
    short = uapi.drm.ioc("WR", ord("d"), uapi.drm.ioc_nr(uapi.DRM_IOCTL_ASAHI_GEM_CREATE), 8)
    assert describe_request(short) == "ASAHI_GEM_CREATE[8 B]"


@pytest.mark.parametrize("enabled", [True, False])
def test_trace_logs_every_ioctl(monkeypatch, capfd, enabled):
    if enabled:
        monkeypatch.setenv("SHIMGL_DEBUG", "sync,trace")
    else:
        monkeypatch.delenv("SHIMGL_DEBUG", raising=False)
    kernel, path = private_device()
    d = Dev(path)
    try:
        vm = d.vm()
        handle = d.gem(0x4000)
        d.map(handle, 0x4000)
        assert d.errno_of("ASAHI_GEM_CREATE", size=0) == errno.EINVAL
        d.ioctl("GEM_CLOSE", handle=handle)
    finally:
        d.close()
        uapi.unregister_backend(path)
    err = capfd.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("shimgl trace:")]
    if not enabled:
        assert lines == []
        return
    mmaps = [line for line in lines if " mmap(" in line]
    assert len(mmaps) == 1 and mmaps[0].endswith(", length=16384) = 16384 bytes")
    lines = [line for line in lines if line not in mmaps]
    assert len(lines) == 5  # VM_CREATE, GEM_CREATE, GEM_MMAP_OFFSET, the failing GEM_CREATE, GEM_CLOSE
    del lines[2]
    assert lines[0].startswith("shimgl trace: file") and " ASAHI_VM_CREATE(" in lines[0]
    assert lines[0].endswith(f"= 0 -> vm_id={vm}")
    assert lines[1].endswith(f"ASAHI_GEM_CREATE(size=16384, flags=0, vm_id=0, handle=0, pad=0) = 0 -> handle={handle}")
    assert "ASAHI_GEM_CREATE(" in lines[2] and lines[2].endswith("= -EINVAL (Invalid argument (zero-sized object))")
    assert f"GEM_CLOSE(handle={handle}, pad=0) = 0" in lines[3]
