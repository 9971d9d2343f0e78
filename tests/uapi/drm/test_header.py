"""uapi.drm: upstream byte layout, _IOC request numbers, constants under upstream names."""

from __future__ import annotations

import pytest

import uapi
from uapi import drm

ffi = uapi.ffi


@pytest.mark.parametrize("struct, size_B", [
    ("drm_asahi_params_global", 592), ("drm_asahi_get_params", 24), ("drm_asahi_get_time", 16),
    ("drm_asahi_vm_create", 24), ("drm_asahi_vm_destroy", 8), ("drm_asahi_gem_create", 24),
    ("drm_asahi_gem_mmap_offset", 16), ("drm_asahi_gem_bind_op", 32), ("drm_asahi_vm_bind", 24),
    ("drm_asahi_gem_bind_object", 40), ("drm_asahi_queue_create", 24), ("drm_asahi_queue_destroy", 8),
    ("drm_asahi_sync", 16), ("drm_asahi_cmd_header", 8), ("drm_asahi_submit", 40),
    ("drm_asahi_attachment", 24), ("drm_asahi_zls_buffer", 24), ("drm_asahi_timestamp", 8),
    ("drm_asahi_timestamps", 16), ("drm_asahi_helper_program", 16), ("drm_asahi_bg_eot", 8),
    ("drm_version", 64), ("drm_get_cap", 16), ("drm_prime_handle", 12), ("drm_syncobj_wait", 40),
    ("drm_syncobj_timeline_wait", 48), ("drm_syncobj_transfer", 32), ("drm_syncobj_timeline_array", 24),
])
def test_struct_sizes_match_upstream(struct, size_B):
    assert ffi.sizeof(f"struct {struct}") == size_B


def test_extensions_are_appended_after_the_upstream_layout():
    # Upstream cmd_render is 240 bytes and cmd_compute 64; our feedback fields follow.
    assert ffi.offsetof("struct drm_asahi_cmd_render", "feedback_handle") == 240
    assert ffi.offsetof("struct drm_asahi_cmd_compute", "feedback_handle") == 64
    # Upstream field offsets inside cmd_render (hand-computed from the field list).
    for field, offset in [("vdm_ctrl_stream_base", 8), ("depth", 72), ("stencil", 96), ("ppp_ctrl", 144),
                          ("width_px", 148), ("utile_width_px", 156), ("samples", 158),
                          ("isp_merge_upper_x", 160), ("bg", 168), ("ts_vtx", 208), ("ts_frag", 224)]:
        assert ffi.offsetof("struct drm_asahi_cmd_render", field) == offset, field
    assert ffi.offsetof("struct drm_asahi_params_global", "vm_start") == 40 + 64 * 8


@pytest.mark.parametrize("name, number", [
    ("DRM_IOCTL_ASAHI_GET_PARAMS", 0x40186440), ("DRM_IOCTL_ASAHI_GET_TIME", 0xC0106441),
    ("DRM_IOCTL_ASAHI_VM_CREATE", 0xC0186442), ("DRM_IOCTL_ASAHI_VM_DESTROY", 0x40086443),
    ("DRM_IOCTL_ASAHI_VM_BIND", 0x40186444), ("DRM_IOCTL_ASAHI_GEM_CREATE", 0xC0186445),
    ("DRM_IOCTL_ASAHI_GEM_MMAP_OFFSET", 0xC0106446), ("DRM_IOCTL_ASAHI_GEM_BIND_OBJECT", 0xC0286447),
    ("DRM_IOCTL_ASAHI_QUEUE_CREATE", 0xC0186448), ("DRM_IOCTL_ASAHI_QUEUE_DESTROY", 0x40086449),
    ("DRM_IOCTL_ASAHI_SUBMIT", 0x4028644A), ("DRM_IOCTL_GET_CAP", 0xC010640C), ("DRM_IOCTL_GEM_CLOSE", 0x40086409),
    ("DRM_IOCTL_PRIME_HANDLE_TO_FD", 0xC00C642D), ("DRM_IOCTL_PRIME_FD_TO_HANDLE", 0xC00C642E),
    ("DRM_IOCTL_SYNCOBJ_CREATE", 0xC00864BF), ("DRM_IOCTL_SYNCOBJ_DESTROY", 0xC00864C0),
    ("DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD", 0xC01064C1), ("DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE", 0xC01064C2),
    ("DRM_IOCTL_SYNCOBJ_WAIT", 0xC02864C3), ("DRM_IOCTL_SYNCOBJ_RESET", 0xC01064C4),
    ("DRM_IOCTL_SYNCOBJ_SIGNAL", 0xC01064C5), ("DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT", 0xC03064CA),
    ("DRM_IOCTL_SYNCOBJ_QUERY", 0xC01864CB), ("DRM_IOCTL_SYNCOBJ_TRANSFER", 0xC02064CC),
    ("DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL", 0xC01864CD), ("DRM_IOCTL_VERSION", 0xC0406400),
])
def test_request_numbers_are_the_linux_ones(name, number):
    assert getattr(uapi, name) == number
    assert getattr(drm, name) == number


def test_ioc_packs_direction_type_number_and_size():
    assert drm.ioc("WR", ord("d"), 0x41, 16) == (3 << 30) | (16 << 16) | (0x64 << 8) | 0x41
    assert drm.ioc("W", ord("d"), 0x4A, 40) == 0x4028644A
    assert drm.ioc_nr(0x4028644A) == 0x4A and drm.ioc_size(0x4028644A) == 40
    with pytest.raises(ValueError, match="size"):
        drm.ioc("W", ord("d"), 1, 1 << 14)


def test_extension_ioctls_are_appended_after_submit():
    assert drm.ioc_nr(uapi.DRM_IOCTL_ASAHI_GEM_SHARE) == 0x40 + 11
    assert drm.ioc_nr(uapi.DRM_IOCTL_ASAHI_QUEUE_COUNTERS) == 0x40 + 12
    assert drm.ioc_nr(uapi.DRM_IOCTL_ASAHI_GEM_USERPTR) == 0x40 + 13
    assert len({spec.request for spec in drm.IOCTLS}) == len(drm.IOCTLS)


@pytest.mark.parametrize("name, value", [
    ("DRM_ASAHI_FEATURE_SOFT_FAULTS", 1), ("DRM_ASAHI_GEM_WRITEBACK", 1), ("DRM_ASAHI_GEM_VM_PRIVATE", 2),
    ("DRM_ASAHI_BIND_UNBIND", 1), ("DRM_ASAHI_BIND_READ", 2), ("DRM_ASAHI_BIND_WRITE", 4),
    ("DRM_ASAHI_BIND_SINGLE_PAGE", 8), ("DRM_ASAHI_BIND_OBJECT_USAGE_TIMESTAMPS", 1),
    ("DRM_ASAHI_CMD_RENDER", 0), ("DRM_ASAHI_CMD_COMPUTE", 1), ("DRM_ASAHI_SET_VERTEX_ATTACHMENTS", 2),
    ("DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS", 3), ("DRM_ASAHI_SET_COMPUTE_ATTACHMENTS", 4),
    ("DRM_ASAHI_PRIORITY_LOW", 0), ("DRM_ASAHI_PRIORITY_MEDIUM", 1), ("DRM_ASAHI_PRIORITY_HIGH", 2),
    ("DRM_ASAHI_PRIORITY_REALTIME", 3), ("DRM_ASAHI_SYNC_SYNCOBJ", 0), ("DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ", 1),
    ("DRM_ASAHI_BARRIER_NONE", 0xFFFF), ("DRM_ASAHI_RENDER_DBIAS_IS_INT", 1 << 18),
    ("DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES", 2), ("DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE", 4),
    ("DRM_CAP_SYNCOBJ_TIMELINE", 0x14), ("DRM_ASAHI_MAX_CLUSTERS", 64),
])
def test_constants_have_upstream_names_and_values(name, value):
    assert getattr(uapi, name) == value


def test_ffi_makes_the_structs():
    bind = uapi.ffi.new("struct drm_asahi_vm_bind *", {"vm_id": 3, "num_binds": 2})
    assert bytes(uapi.ffi.buffer(bind))[:8] == (3).to_bytes(4, "little") + (2).to_bytes(4, "little")
