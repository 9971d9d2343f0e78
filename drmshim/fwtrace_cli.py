"""``shimgl fwtrace FILE.json``: the firmware queue view of a described submission.

Sole responsibility: submit the described commands (as no-op commands) through
the uapi seam to a fresh mock kernel, record the events its firmware queues
execute, and print one line per firmware queue. Nothing here models the
barrier rules: the output is what ``drmshim.firmware`` did. Input::

    {"commands": [{"type": "render", "barrier": {"render": null, "compute": 0}}, ...]}

``type`` is "render", "compute" or "blit"; a barrier is a boundary index or
null (``DRM_ASAHI_BARRIER_NONE``). Exit status 2 when the kernel rejects the
submission (the errno is printed), 1 when the file is malformed.
"""

from __future__ import annotations

import errno as errno_module
import itertools
import json
import sys
import time

__all__ = ["register", "trace", "format_trace"]

_paths = itertools.count(1)
_KINDS = {"render": "DRM_ASAHI_CMD_RENDER", "compute": "DRM_ASAHI_CMD_COMPUTE", "blit": "DRM_ASAHI_CMD_BLIT"}


_DESCRIPTION = """\
Submit the described commands as no-op commands to a fresh mock kernel and print,
one line per firmware queue, what its compute, vertex and fragment queues did.

FILE.json:
  {"commands": [{"type": "render", "barrier": {"render": null, "compute": 0}},
                {"type": "compute", "barrier": {"render": null, "compute": null}}]}

type is render, compute or blit; a barrier is a boundary index or null (none).
Exit status: 0, 1 for an unreadable file, 2 when the kernel rejects the submission."""


def register(subparsers) -> None:
    import argparse

    parser = subparsers.add_parser("fwtrace", help="print the firmware queue view of a described submission",
                                   description=_DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("file", metavar="FILE.json", help="the submission: {\"commands\": [...]}")
    parser.set_defaults(func=_main)


def _noop_command(ffi, uapi, kind: str) -> bytes:
    """A valid command that does nothing: an empty stream, a 16x16 px framebuffer."""
    if kind == "compute":
        return bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_compute *")))
    render = ffi.new("struct drm_asahi_cmd_render *", {
        "width_px": 16, "height_px": 16, "layers": 1, "samples": 1, "utile_width_px": 16, "utile_height_px": 16})
    return bytes(ffi.buffer(render))


def _cmdbuf(commands: list[dict]) -> bytes:
    import uapi

    ffi = uapi.ffi
    out = bytearray()
    for i, command in enumerate(commands):
        kind = command.get("type")
        if kind not in _KINDS:
            raise ValueError(f"command {i}: type must be one of {sorted(_KINDS)}, not {kind!r}")
        barrier = command.get("barrier", {})
        fields = {}
        for key, name in (("render", "vdm_barrier"), ("compute", "cdm_barrier")):
            value = barrier.get(key)
            if value is not None and not (isinstance(value, int) and 0 <= value < uapi.DRM_ASAHI_BARRIER_NONE):
                raise ValueError(f"command {i}: {key} barrier must be null or a boundary index, not {value!r}")
            fields[name] = uapi.DRM_ASAHI_BARRIER_NONE if value is None else value
        payload = _noop_command(ffi, uapi, kind)
        header = ffi.new("struct drm_asahi_cmd_header *", {"cmd_type": getattr(uapi, _KINDS[kind]),
                                                            "size": len(payload), **fields})
        out += bytes(ffi.buffer(header)) + payload
    return bytes(out)


def trace(description: dict, timeout_s: float = 10.0) -> dict[str, list[str]]:
    """Submit ``description`` to a fresh kernel; the events of each firmware queue.
    Raises OSError (the kernel's errno) if the submission is rejected."""
    import uapi

    from .firmware import QUEUE_NAMES
    from .kernel import Kernel

    ffi = uapi.ffi
    commands = description.get("commands")
    if not isinstance(commands, list) or not commands:
        raise ValueError('the description needs a non-empty "commands" list')
    cmdbuf = ffi.from_buffer(_cmdbuf(commands))
    kernel = Kernel(arena_size_B=1 << 26)
    events: dict[str, list[str]] = {name: [] for name in QUEUE_NAMES}
    kernel.fw_listeners.append(lambda event: events[event.queue].append(str(event)))
    path = f"/dev/shimgl/fwtrace{next(_paths)}"
    uapi.register_backend(path, kernel)
    fd = uapi.open(path)
    try:
        vm = ffi.new("struct drm_asahi_vm_create *", {"kernel_start": 0x7F_0000_0000, "kernel_end": 0x7F_2000_0000})
        uapi.ioctl(fd, uapi.DRM_IOCTL_ASAHI_VM_CREATE, vm)
        queue = ffi.new("struct drm_asahi_queue_create *", {"vm_id": vm.vm_id,
                                                            "priority": uapi.DRM_ASAHI_PRIORITY_MEDIUM})
        uapi.ioctl(fd, uapi.DRM_IOCTL_ASAHI_QUEUE_CREATE, queue)
        syncobj = ffi.new("struct drm_syncobj_create *")
        uapi.ioctl(fd, uapi.DRM_IOCTL_SYNCOBJ_CREATE, syncobj)
        syncs = ffi.new("struct drm_asahi_sync[1]", [{"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ,
                                                      "handle": syncobj.handle}])
        submit = ffi.new("struct drm_asahi_submit *", {
            "syncs": int(ffi.cast("uintptr_t", syncs)), "cmdbuf": int(ffi.cast("uintptr_t", cmdbuf)),
            "queue_id": queue.queue_id, "out_sync_count": 1, "cmdbuf_size": len(cmdbuf)})
        uapi.ioctl(fd, uapi.DRM_IOCTL_ASAHI_SUBMIT, submit)
        handles = ffi.new("__u32[1]", [syncobj.handle])
        wait = ffi.new("struct drm_syncobj_wait *", {
            "handles": int(ffi.cast("uintptr_t", handles)), "count_handles": 1,
            "timeout_nsec": time.monotonic_ns() + int(timeout_s * 1e9)})
        uapi.ioctl(fd, uapi.DRM_IOCTL_SYNCOBJ_WAIT, wait)
    finally:
        uapi.close(fd)
        uapi.unregister_backend(path)
    return events


def format_trace(events: dict[str, list[str]]) -> str:
    """One line per firmware queue: ``Compute: RUN C1; RUN C2``."""
    lines = []
    for name, queue_events in events.items():
        lines.append(f"{name}: {'; '.join(queue_events)}" if queue_events else f"{name}:")
    return "\n".join(lines)


def _main(args) -> int:
    try:
        with open(args.file) as f:
            description = json.load(f)
    except (OSError, ValueError) as error:
        print(f"shimgl fwtrace: cannot read {args.file}: {error}", file=sys.stderr)
        return 1
    try:
        events = trace(description)
    except ValueError as error:
        print(f"shimgl fwtrace: {args.file}: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        name = errno_module.errorcode.get(error.errno, str(error.errno))
        print(f"shimgl fwtrace: the kernel rejected the submission: {name}: {error.strerror}", file=sys.stderr)
        return 2
    print(format_trace(events))
    return 0
