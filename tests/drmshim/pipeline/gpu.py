"""Test helpers: a flat GPU address space with a bump allocator, USC words and
command builders, and a fake FirmwareCommand to call the executor directly."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

import uapi
from drmshim.firmware.command import Counters, Feedback, FirmwareCommand
from drmshim.memory import FlatMemory
from uapi import packets as P
from uapi.isa import assemble

BASE = 0x1_0000_0000


class Space:
    """FlatMemory plus a bump allocator."""

    def __init__(self, size_B: int = 64 << 20):
        self.mem = FlatMemory(size_B, base=BASE)
        self.top = BASE + 0x1000

    def alloc(self, size_B: int, align: int = 256) -> int:
        va = (self.top + align - 1) // align * align
        self.top = va + max(int(size_B), 1)
        assert self.top <= BASE + self.mem.bytes.size, "test address space exhausted"
        return va

    def put(self, data, align: int = 256) -> int:
        raw = data if isinstance(data, (bytes, bytearray)) else np.ascontiguousarray(data).tobytes()
        va = self.alloc(len(raw), align)
        self.mem.write(va, raw, "test")
        return va

    def get(self, va: int, n: int, dtype=np.uint8) -> np.ndarray:
        return self.mem.read(va, n * np.dtype(dtype).itemsize, "test").view(dtype)

    def program(self, asm: str) -> int:
        return self.put(assemble(asm), align=64)

    def usc(self, asm: str | None = None, *, code_va: int | None = None, uniforms: np.ndarray | None = None,
            textures: bytes | None = None, samplers: bytes | None = None, registers: int = 32,
            shared_B: int = 0, threads: int = 1, outputs: int = 0, cf: int = 0, fragment: dict | None = None,
            pbe=()) -> int:
        """USC words for a pipeline; returns their address. ``pbe``: (tile offset,
        PBE descriptor bytes) render targets of an end-of-tile pipeline."""
        if code_va is None and asm is not None:
            code_va = self.program(asm)
        words = [] if code_va is None else [P.pack("USC_SHADER", register_count=registers, code=code_va)]
        if uniforms is not None:
            u = np.ascontiguousarray(uniforms).view(np.uint16)
            nz = np.flatnonzero(u)
            u = u[:max(2, int(nz[-1]) + 1 if nz.size else 2)]
            words.append(P.pack("USC_UNIFORM", start_halves=0, size_halves=u.size, buffer=self.put(u.tobytes())))
        if textures:
            words.append(P.pack("USC_TEXTURE", start=0, count=len(textures) // P.TEXTURE_DESC_B,
                                table=self.put(textures, 64)))
        if samplers:
            words.append(P.pack("USC_SAMPLER", start=0, count=len(samplers) // P.SAMPLER_DESC_B,
                                table=self.put(samplers, 64)))
        if shared_B:
            words.append(P.pack("USC_SHARED", local_memory_size_B=shared_B, threadgroup_size_threads=threads))
        if outputs or cf:
            words.append(P.pack("USC_VARYINGS", output_count_words=outputs, cf_count=cf))
        if fragment is not None:
            words.append(P.pack("USC_FRAGMENT", **fragment))
        for offset_B, desc in pbe:
            words.append(P.pack("USC_PBE", tile_offset_B=offset_B, descriptor=self.put(desc, 64)))
        words.append(P.pack("USC_END"))
        return self.put(b"".join(words), align=16)


def u64_uniforms(*values: int) -> np.ndarray:
    """uint32[256] uniforms: each value a 64-bit pair (u0_u1, u2_u3, ...)."""
    u = np.zeros(256, np.uint32)
    u[:2 * len(values)].view(np.uint64)[:] = values
    return u


def command(space: Space, kind: str, **fields) -> FirmwareCommand:
    """A FirmwareCommand as the firmware would build it (kind render/compute/blit)."""
    struct = "struct drm_asahi_cmd_compute" if kind == "compute" else "struct drm_asahi_cmd_render"
    if kind != "compute":
        fields = {"width_px": 16, "height_px": 16, "layers": 1, "samples": 1, "utile_width_px": 32,
                  "utile_height_px": 32, **fields}
    cmd = uapi.ffi.new(struct + " *", fields)[0]
    return FirmwareCommand(kind=kind, index=0, name="X0", cmd=cmd, memory=space.mem, vm=None,
                           usc_exec_base=BASE, config=SimpleNamespace(), counters=Counters(), feedback=Feedback())


# ----------------------------------------------------------------------------- render helpers

def f32bits(*values: float) -> list[int]:
    return [int(v) for v in np.array(values, np.float32).view(np.uint32)]


def vertex_shader(n_varyings: int = 0) -> str:
    """Vertex buffer at u0_u1: per vertex x, y, z, w then n_varyings floats."""
    stride = 4 + n_varyings
    lines = ["get_sr r3, vertex_id", f"mov_imm r12, {stride}", "imul r3, r3, r12",
             "device_load.i32 r4_r5_r6_r7, u0_u1, r3, 2, 0", "wait 0"]
    lines += [f"st_var {i}, r{4 + i}" for i in range(4)]
    for k in range(0, n_varyings, 4):
        m = min(4, n_varyings - k)
        regs = "_".join(f"r{8 + j}" for j in range(m))
        lines += ["iadd r3, r3, 4", f"device_load.i32 {regs}, u0_u1, r3, 2, 0",
                  "wait 0"]
        lines += [f"st_var {4 + k + j}, r{8 + j}" for j in range(m)]
    return "\n".join(lines + ["stop"])


def constant_fs(rgba) -> str:
    bits = f32bits(*rgba)
    return "\n".join([f"mov_imm r{4 + i}, 0x{b:x}" for i, b in enumerate(bits)]
                     + ["st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])


CLEAR_BG = "\n".join(["mov r4, u0", "mov r5, u1", "mov r6, u2", "mov r7, u3",
                       "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
STORE_EOT = "\n".join(["get_sr r4, pixel_x", "get_sr r5, pixel_y", "ld_tile.unorm8 r8_r9_r10_r11, 0",
                        "image_write.2d r8_r9_r10_r11, r4_r5, 0, 0", "wait 0", "stop"])
LOAD_BG = "\n".join(["get_sr r4, pixel_x", "get_sr r5, pixel_y", "mov_imm r6, 0",
                      "texture_load.2d r8_r9_r10_r11, r4_r5, 0, r6, 0", "wait 0",
                      "st_tile.unorm8 r8_r9_r10_r11, 0, 15", "stop"])


class Target:
    """An RGBA8 render target in the space, and its texture descriptor."""

    def __init__(self, space: Space, W: int, H: int, tiling: str = "linear", fmt: str = "R8G8B8A8_UNORM"):
        import layout
        from drmshim.gpu.texture.descriptors import format_id
        self.space, self.W, self.H = space, W, H
        self.lay = layout.make_miptree(W, H, format=fmt, tiling=tiling, renderable=True)
        self.va = space.alloc(self.lay.size_B, 16384)
        if tiling == "twiddled_compressed":
            buf = np.zeros(self.lay.size_B, np.uint8)
            layout.clear_metadata(self.lay, buf)
            space.mem.write(self.va, buf, "test")
        self.desc = P.pack("TEXTURE", tiling=tiling.upper(), format_id=format_id(fmt), width_px=W, height_px=H,
                           address=self.va, linear_stride_B=self.lay.linear_stride_B if tiling == "linear" else 0)
        self.pbe = P.pack("PBE", tiling=tiling.upper(), format_id=format_id(fmt), width_px=W, height_px=H,
                          address=self.va, linear_stride_B=self.lay.linear_stride_B if tiling == "linear" else 0)

    def pixels(self) -> np.ndarray:
        import layout
        raw = self.space.get(self.va, self.lay.size_B)
        return layout.detile(self.lay, raw, 0, 0, 0, 0, self.W, self.H).reshape(self.H, self.W, -1)


class Scene:
    """Builds a render command: draws with their state, bg/eot programs."""

    def __init__(self, space: Space, W: int = 64, H: int = 64, samples: int = 1, tiling: str = "linear",
                 clear=(0.0, 0.0, 0.0, 0.0), clear_depth: float = 1.0, clear_stencil: int = 0):
        self.space, self.W, self.H, self.samples = space, W, H, samples
        self.target = Target(space, W, H, tiling)
        self.blocks: list[bytes] = []
        self.clear_depth, self.clear_stencil = clear_depth, clear_stencil
        u = np.zeros(256, np.uint32)
        u[:4] = f32bits(*clear)
        self.bg = space.usc(CLEAR_BG, uniforms=u)
        self.eot = space.usc(pbe=[(0, self.target.pbe)])
        self.partial_bg = space.usc(LOAD_BG, textures=self.target.desc)
        self.vs_cache: dict = {}
        self.vertex_buffers: list[int] = []      # each draw's vertex data, in draw order

    def viewport(self) -> dict:
        return dict(translate_x=self.W / 2, scale_x=self.W / 2, translate_y=self.H / 2, scale_y=self.H / 2,
                    translate_z=0.5, scale_z=0.5)

    def draw(self, vertices, fs: str | int, *, primitive: str = "TRIANGLES", indices=None, index_size: str = "U32",
             varyings: int = 0, cf_bindings=None, instances: int = 1, fragment: dict | None = None,
             fs_uniforms=None, fs_textures=None, base_vertex: int = 0, restart: int | None = None,
             slots_32: int | None = None, **ppp) -> None:
        sp = self.space
        v = np.ascontiguousarray(vertices, np.float32)
        vbuf = sp.put(v)
        self.vertex_buffers.append(vbuf)
        key = varyings
        if key not in self.vs_cache:
            self.vs_cache[key] = sp.program(vertex_shader(varyings))
        vs = sp.usc(code_va=self.vs_cache[key], uniforms=u64_uniforms(vbuf), outputs=4 + varyings)
        fs_va = fs if isinstance(fs, int) else sp.usc(fs, fragment=fragment, uniforms=fs_uniforms,
                                                     textures=fs_textures, cf=8)
        members = {"viewport": self.viewport(), **ppp}
        bindings = cf_bindings if cf_bindings is not None else []
        if bindings:
            hdr = P.pack("CF_BINDING_HEADER", slots_32=1 + varyings if slots_32 is None else slots_32,
                         cf_count=max(b["base_cf"] + b.get("components", 1) for b in bindings))
            cf = sp.put(hdr + b"".join(P.pack("CF_BINDING", **b) for b in bindings), 16)
        else:
            cf = sp.put(P.pack("CF_BINDING_HEADER", slots_32=1, cf_count=0), 16)
        members["fragment_shader"] = dict(pipeline=fs_va, cf_bindings=cf, cf_binding_count=len(bindings))
        if varyings:
            members.setdefault("output_select", dict(varyings=True))
            members.setdefault("varying_counts", dict(smooth_32=varyings))
        state = P.pack("PPP_STATE", **members)
        state_va = sp.put(state, 16)
        self.blocks.append(P.pack("VDM_STATE", vertex_shader=dict(pipeline=vs),
                                  vertex_outputs=dict(output_count_words=4 + varyings)))
        self.blocks.append(P.pack("VDM_PPP_STATE_UPDATE", size_words=len(state) // 4, state=state_va))
        draw = dict(primitive=primitive, instances=instances, base_vertex=base_vertex)
        if indices is not None:
            dt = {"U8": np.uint8, "U16": np.uint16, "U32": np.uint32}[index_size]
            ib = np.ascontiguousarray(indices, dt)
            draw.update(indexed=True, index_size=index_size, index_buffer=sp.put(ib), index_buffer_size_B=ib.nbytes,
                        count=len(ib))
            if restart is not None:
                draw.update(restart_enable=True, restart_index=restart)
        else:
            draw.update(count=len(v))
        self.blocks.append(P.pack("VDM_INDEX_LIST", **draw))

    def command(self, stream: int | None = None, **fields):
        """The render command (``stream``: a VDM stream put before, else the draws' put now)."""
        import uapi
        if stream is None:
            stream = self.space.put(b"".join(self.blocks) + P.pack("VDM_TERMINATE"), 16)
        base = {"vdm_ctrl_stream_base": stream, "width_px": self.W, "height_px": self.H, "samples": self.samples,
                "sample_size_B": 4, "utile_width_px": 32, "utile_height_px": 32,
                "flags": uapi.DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES,
                "isp_bgobjdepth": f32bits(self.clear_depth)[0], "isp_bgobjvals": self.clear_stencil,
                "bg": {"usc": self.bg - BASE}, "eot": {"usc": self.eot - BASE},
                "partial_bg": {"usc": self.partial_bg - BASE}, "partial_eot": {"usc": self.eot - BASE}}
        base.update(fields)
        return command(self.space, "render", **base)

    def render(self, executor=None, **fields) -> np.ndarray:
        from drmshim.gpu.pipeline import Executor
        ex = executor or Executor()
        cmd = self.command(**fields)
        ex.run_vertex(cmd)
        ex.run_fragment(cmd)
        self.last = cmd
        return self.target.pixels()


COUNT_FS = "\n".join(["ld_tile.i32 r4, 0", "iadd r4, r4, 1", "st_tile.i32 r4, 0, 1", "stop"])


def record_eot(space: Space, W: int, H: int, samples: int = 1) -> tuple[int, int]:
    """An end-of-tile program storing every sample's raw 32-bit record to a buffer
    ((y * W + x) * samples + s); returns (usc words, buffer)."""
    buf = space.alloc(4 * W * H * samples)
    asm = "\n".join(["get_sr r4, pixel_x", "get_sr r5, pixel_y", "get_sr r6, sample_id", f"mov_imm r7, {W}",
                     "imad r8, r5, r7, r4", f"mov_imm r7, {samples}", "imad r8, r8, r7, r6",
                     "ld_tile.i32 r9, 0", "device_store.i32 r9, u0_u1, r8, 2, 0", "wait 0", "stop"])
    return space.usc(asm, uniforms=u64_uniforms(buf)), buf


def zero_bg(space: Space) -> int:
    return space.usc("mov_imm r4, 0\nst_tile.i32 r4, 0, 1\nstop")
