"""A small scene for the capture tests: command streams built with the packet table
in one GPU object, and a toy GPU executor whose effects are easy to check.

Object layout (``BASE`` is its VA; 64 KiB)::

    +0x0000  VDM stream: VDM_STATE(vertex shader) PPP_STATE_UPDATE INDEX_LIST TERMINATE
    +0x0200  PPP state (viewport, fragment shader)
    +0x0400  vertex USC words: USC_SHADER(code +0x800) USC_UNIFORM(+0x900, 8 halves) USC_END
    +0x0500  fragment USC words: USC_SHADER(code +0x880) USC_END
    +0x0580  end-of-tile USC words: USC_TEXTURE(table +0x2000, 1) USC_END  (eot.usc = 0x580)
    +0x0600  CF bindings
    +0x0700  CDM stream: CDM_LAUNCH(pipeline +0x780) TERMINATE
    +0x0780  kernel USC words: USC_SHADER(code +0x800) USC_UNIFORM(+0x900) USC_END
    +0x0800  code: mov_imm r0, 0xdeadbeef; stop
    +0x0880  code: stop
    +0x0900  uniforms (16 bytes)
    +0x0a00  index buffer: 0, 1, 2
    +0x2000  image (TEXTURE) descriptor of the colour target (16x16 RGBA8, linear, at +0x4000)
    +0x4000  the colour target (16 * 16 * 4 bytes)
"""

from __future__ import annotations

import numpy as np

import uapi
from uapi import isa
from uapi import packets as P

from tests.drmshim.kernel.helpers import compute, render

BASE = 0x1_0000_0000
SIZE_B = 0x10000
USC_EXEC_BASE = BASE  # eot.usc etc. are offsets from here
TARGET_VA = BASE + 0x4000
UNIFORMS = bytes(range(1, 17))


def scene_bytes(*, uniform_va: int = BASE + 0x900, index_va: int = BASE + 0xA00) -> bytearray:
    mem = bytearray(SIZE_B)

    def put(off, data):
        mem[off:off + len(data)] = data

    ppp = P.PPP_STATE.pack(viewport=dict(scale_x=8.0, translate_x=8.0, scale_y=8.0, translate_y=8.0),
                           fragment_shader=dict(pipeline=BASE + 0x500, cf_bindings=BASE + 0x600,
                                                cf_binding_count=1))
    vdm = (P.VDM_STATE.pack(vertex_shader=dict(pipeline=BASE + 0x400))
           + P.pack("VDM_PPP_STATE_UPDATE", state=BASE + 0x200, size_words=len(ppp) // 4)
           + P.pack("VDM_INDEX_LIST", primitive="TRIANGLES", indexed=True, index_size="U32",
                    index_buffer=index_va, index_buffer_size_B=12, count=3)
           + P.pack("VDM_TERMINATE"))
    put(0x0, vdm)
    put(0x200, ppp)
    usc = (P.pack("USC_SHADER", register_count=4, code=BASE + 0x800)
           + P.pack("USC_UNIFORM", start_halves=0, size_halves=8, buffer=uniform_va) + P.pack("USC_END"))
    put(0x400, usc)
    put(0x500, P.pack("USC_SHADER", register_count=2, code=BASE + 0x880) + P.pack("USC_END"))
    put(0x580, P.pack("USC_TEXTURE", start=0, count=1, table=BASE + 0x2000) + P.pack("USC_END"))
    put(0x600, P.pack("CF_BINDING_HEADER", slots_32=1, cf_count=1) + P.pack("CF_BINDING", base_slot=0, base_cf=0))
    put(0x700, P.pack("CDM_LAUNCH", pipeline=BASE + 0x780, grid_x_tg=2) + P.pack("CDM_TERMINATE"))
    put(0x780, usc)
    put(0x800, isa.assemble("mov_imm r0, 0xdeadbeef\nstop"))
    put(0x880, isa.assemble("stop"))
    put(0x900, UNIFORMS)
    put(0xA00, np.array([0, 1, 2], np.uint32).tobytes())
    fmt_id = tuple(__import__("layout").FORMATS).index("R8G8B8A8_UNORM")
    put(0x2000, P.pack("TEXTURE", tiling="LINEAR", format_id=fmt_id, width_px=16, height_px=16, address=TARGET_VA,
                       linear_stride_B=64))
    return mem


def render_cmd(**fields) -> bytes:
    values = dict(vdm_ctrl_stream_base=BASE, eot={"usc": 0x580}, **fields)
    return render(**values)


def compute_cmd(**fields) -> bytes:
    return compute(cdm_ctrl_stream_base=BASE + 0x700, **fields)


class ToyGPU:
    """A deterministic stand-in for the GPU model.

    compute: for each CDM launch, reads the kernel's uniform buffer and writes it
    XOR 0x5A, plus grid_x, 0x1000 bytes after it. render (fragment half): fills the
    colour target at TARGET_VA with a pattern derived from the uniforms;
    vertex half: reads the index buffer (a fault if it is unmapped)."""

    concurrent = False

    def run_compute(self, command) -> None:
        mem = command.memory
        read = P.memory_reader(mem, "CDM")
        for item in P.walk_cdm(read, command.cmd.cdm_ctrl_stream_base):
            if item.name != "CDM_LAUNCH":
                continue
            for usc in P.decode_usc_words(read, item.record.pipeline):
                if usc.name == "USC_UNIFORM":
                    data = mem.read(usc.record.buffer, 2 * usc.record.size_halves, "USC")
                    out = (data ^ 0x5A).astype(np.uint8)
                    out[0] = (int(out[0]) + item.record.grid_x_tg) & 0xFF
                    mem.write(usc.record.buffer + 0x1000, out, "USC")

    def run_vertex(self, command) -> None:
        mem = command.memory
        read = P.memory_reader(mem, "VDM")
        for item in P.walk_vdm(read, command.cmd.vdm_ctrl_stream_base):
            if item.name == "VDM_INDEX_LIST":
                mem.read(item.record.index_buffer, 4 * item.record.count, "VDM")

    def run_fragment(self, command) -> None:
        mem = command.memory
        read = P.memory_reader(mem, "PBE")
        pattern = None
        for item in P.walk_vdm(read, command.cmd.vdm_ctrl_stream_base):
            if item.name == "VDM_STATE":
                for usc in P.decode_usc_words(read, item.record.members["vertex_shader"].pipeline):
                    if usc.name == "USC_UNIFORM":
                        pattern = mem.read(usc.record.buffer, 16, "USC")
        y, x = np.mgrid[0:16, 0:16]
        seed = int(pattern.sum()) if pattern is not None else 0
        img = np.stack([x * 16, y * 16, (x + y + seed) & 0xFF, np.full_like(x, 255)], -1).astype(np.uint8)
        mem.write(TARGET_VA, img.reshape(-1), "PBE")


def setup(dev, *, extra_map=True) -> tuple[int, int, int, memoryview]:
    """VM, queue and the scene object mapped at BASE; returns (vm, queue, handle, cpu map)."""
    vm = dev.vm()
    handle = dev.gem(SIZE_B)
    cpu = dev.map(handle, SIZE_B)
    cpu[:] = bytes(scene_bytes())
    dev.bind(vm, handle, BASE, SIZE_B)
    queue = dev.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm, priority=uapi.DRM_ASAHI_PRIORITY_MEDIUM,
                      usc_exec_base=USC_EXEC_BASE).queue_id
    return vm, queue, handle, cpu
