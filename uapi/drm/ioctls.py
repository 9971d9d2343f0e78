"""Ioctl request numbers, computed from the struct sizes by the Linux ``_IOC`` rules.

Sole responsibility: the table of ioctls (name, direction, number, argument
struct) and the request numbers derived from it. Numbers are never retyped:
``_IOC(dir, 'd', nr, sizeof(struct))`` as in ``include/uapi/asm-generic/ioctl.h``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .header import constants, ffi

__all__ = ["IoctlSpec", "IOCTLS", "BY_REQUEST", "BY_NR", "request_numbers", "ioc", "ioc_nr", "ioc_size"]

# asm-generic/ioctl.h
_IOC_NRBITS, _IOC_TYPEBITS, _IOC_SIZEBITS, _IOC_DIRBITS = 8, 8, 14, 2
_IOC_NRSHIFT = 0
_IOC_TYPESHIFT = _IOC_NRSHIFT + _IOC_NRBITS
_IOC_SIZESHIFT = _IOC_TYPESHIFT + _IOC_TYPEBITS
_IOC_DIRSHIFT = _IOC_SIZESHIFT + _IOC_SIZEBITS
_IOC_NONE, _IOC_WRITE, _IOC_READ = 0, 1, 2
_DIRECTIONS = {"": _IOC_NONE, "W": _IOC_WRITE, "R": _IOC_READ, "WR": _IOC_READ | _IOC_WRITE}

DRM_IOCTL_BASE = ord("d")


def ioc(direction: str, type_: int, nr: int, size_B: int) -> int:
    """``_IOC``: pack direction ("", "W", "R", "WR"), type, number and size."""
    if not 0 <= size_B < (1 << _IOC_SIZEBITS):
        raise ValueError(f"ioctl argument size {size_B} does not fit the {_IOC_SIZEBITS}-bit size field")
    return (_DIRECTIONS[direction] << _IOC_DIRSHIFT) | (type_ << _IOC_TYPESHIFT) \
        | (nr << _IOC_NRSHIFT) | (size_B << _IOC_SIZESHIFT)


def ioc_nr(request: int) -> int:
    return (request >> _IOC_NRSHIFT) & ((1 << _IOC_NRBITS) - 1)


def ioc_size(request: int) -> int:
    return (request >> _IOC_SIZESHIFT) & ((1 << _IOC_SIZEBITS) - 1)


@dataclass(frozen=True)
class IoctlSpec:
    """One ioctl: upstream name, direction, number and argument struct."""

    name: str
    direction: str
    nr: int
    struct: str

    @property
    def request(self) -> int:
        return ioc(self.direction, DRM_IOCTL_BASE, self.nr, ffi.sizeof(self.struct))


def _asahi(name: str, direction: str, struct: str) -> IoctlSpec:
    nr = constants["DRM_COMMAND_BASE"] + constants[f"DRM_ASAHI_{name}"]
    return IoctlSpec(f"DRM_IOCTL_ASAHI_{name}", direction, nr, f"struct {struct}")


def _core(name: str, direction: str, nr: int, struct: str) -> IoctlSpec:
    return IoctlSpec(f"DRM_IOCTL_{name}", direction, nr, f"struct {struct}")


# drm.h numbers of the generic ioctls (the 'd' type, below DRM_COMMAND_BASE)
# and the Asahi ids (DRM_COMMAND_BASE + enum drm_asahi_ioctl_id).
IOCTLS: tuple[IoctlSpec, ...] = (
    _core("VERSION", "WR", 0x00, "drm_version"),
    _core("GEM_CLOSE", "W", 0x09, "drm_gem_close"),
    _core("GET_CAP", "WR", 0x0C, "drm_get_cap"),
    _core("PRIME_HANDLE_TO_FD", "WR", 0x2D, "drm_prime_handle"),
    _core("PRIME_FD_TO_HANDLE", "WR", 0x2E, "drm_prime_handle"),
    _core("SYNCOBJ_CREATE", "WR", 0xBF, "drm_syncobj_create"),
    _core("SYNCOBJ_DESTROY", "WR", 0xC0, "drm_syncobj_destroy"),
    _core("SYNCOBJ_HANDLE_TO_FD", "WR", 0xC1, "drm_syncobj_handle"),
    _core("SYNCOBJ_FD_TO_HANDLE", "WR", 0xC2, "drm_syncobj_handle"),
    _core("SYNCOBJ_WAIT", "WR", 0xC3, "drm_syncobj_wait"),
    _core("SYNCOBJ_RESET", "WR", 0xC4, "drm_syncobj_array"),
    _core("SYNCOBJ_SIGNAL", "WR", 0xC5, "drm_syncobj_array"),
    _core("SYNCOBJ_TIMELINE_WAIT", "WR", 0xCA, "drm_syncobj_timeline_wait"),
    _core("SYNCOBJ_QUERY", "WR", 0xCB, "drm_syncobj_timeline_array"),
    _core("SYNCOBJ_TRANSFER", "WR", 0xCC, "drm_syncobj_transfer"),
    _core("SYNCOBJ_TIMELINE_SIGNAL", "WR", 0xCD, "drm_syncobj_timeline_array"),
    _asahi("GET_PARAMS", "W", "drm_asahi_get_params"),
    _asahi("GET_TIME", "WR", "drm_asahi_get_time"),
    _asahi("VM_CREATE", "WR", "drm_asahi_vm_create"),
    _asahi("VM_DESTROY", "W", "drm_asahi_vm_destroy"),
    _asahi("VM_BIND", "W", "drm_asahi_vm_bind"),
    _asahi("GEM_CREATE", "WR", "drm_asahi_gem_create"),
    _asahi("GEM_MMAP_OFFSET", "WR", "drm_asahi_gem_mmap_offset"),
    _asahi("GEM_BIND_OBJECT", "WR", "drm_asahi_gem_bind_object"),
    _asahi("QUEUE_CREATE", "WR", "drm_asahi_queue_create"),
    _asahi("QUEUE_DESTROY", "W", "drm_asahi_queue_destroy"),
    _asahi("SUBMIT", "W", "drm_asahi_submit"),
    # shimgl extensions
    _asahi("GEM_SHARE", "W", "drm_asahi_gem_share"),
    _asahi("QUEUE_COUNTERS", "W", "drm_asahi_get_queue_counters"),
    _asahi("GEM_USERPTR", "WR", "drm_asahi_gem_userptr"),
)

BY_REQUEST: dict[int, IoctlSpec] = {spec.request: spec for spec in IOCTLS}
BY_NR: dict[int, IoctlSpec] = {spec.nr: spec for spec in IOCTLS}


def request_numbers() -> dict[str, int]:
    """Every ioctl's upstream name -> request number."""
    return {spec.name: spec.request for spec in IOCTLS}
