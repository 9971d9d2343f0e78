"""Shader binaries as the hardware driver binds them, and their variants.

Sole responsibility: describe one compiled shader variant in the terms the
encoders need (``AgxShader``: code, registers, what the uniform registers must
hold, vertex outputs, coefficient bindings, fragment flags, compute workgroup),
and make variants per state key (``ShaderCSO``). A pipe shader CSO is either
the compiler's linked stage as IR (``ShaderState.ir``: a ``compiler.variant.StageIR``
from the GL front end's link, compiled by ``compile.compile_variant`` once per
key; no GLSL text is parsed and no AST read here), another front end's shader with its own
front half (ARB programs, geometry and tessellation kernels), or a prebuilt
``AgxShader`` (internal programs and tests: one variant for every key).

Uniform registers (``push``): a list of ``Push(start_halves, source, ...)``
ranges the driver fills at draw time: ``cb0`` (bytes of constant buffer 0),
``ubo``/``ssbo`` (64-bit address of buffer binding ``index``), ``vbo`` (64-bit
address of vertex buffer ``index`` including its offset), ``sysval`` (a named
system value: ``blend_color``, ``viewport``, ``base_vertex``, ...),
``texture_size`` etc. are added by the compiler when it needs them."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from compiler.ir import ShaderKey

__all__ = ["AgxShader", "Push", "ShaderCSO", "CFBinding"]


@dataclass(frozen=True)
class Push:
    """Uniform registers [start_halves, start_halves + size_halves) hold ``source``."""
    start_halves: int
    size_halves: int
    source: str                 # "cb0", "ubo", "ssbo", "vbo", "sysval", "const"
    index: int = 0              # binding / buffer index
    offset_B: int = 0           # byte offset into the source
    name: str = ""              # sysval name
    data: bytes = b""           # "const": literal bytes


@dataclass(frozen=True)
class CFBinding:
    """Vertex-output slots base_slot.. -> coefficient registers base_cf.."""
    base_slot: int
    base_cf: int
    components: int = 1
    shade_model: str = "PERSPECTIVE"    # FLAT, LINEAR, PERSPECTIVE
    source: str = "VARYING"             # a uapi.packets.CoefficientSource name


@dataclass
class AgxShader:
    """One compiled variant."""
    stage: str                                  # "vertex", "fragment", "compute"
    binary: bytes
    register_count: int = 32
    scratch_size_B: int = 0
    push: tuple[Push, ...] = ()
    textures: int = 0                           # texture state registers used (slots 0..)
    samplers: int = 0
    # vertex
    output_count_words: int = 4
    smooth_32: int = 0
    flat_32: int = 0
    linear_32: int = 0
    point_size: bool = False
    clip_distances: int = 0
    cull_distances: int = 0                     # mask of cull-distance words (after the clip ones)
    # fragment
    cf_bindings: tuple[CFBinding, ...] = ()
    cf_count: int = 0
    slots_32: int = 1                           # CF_BINDING_HEADER.slots_32
    frag_coord_z: bool = False
    writes_depth: bool = False
    writes_sample_mask: bool = False
    discards: bool = False
    reads_tile: bool = False
    reads_zs: bool = False                      # gl_LastFragDepthARM/StencilARM: no early depth/stencil
    per_sample: bool = False                    # one invocation per covered sample (USC_FRAGMENT)
    # compute
    local_size: tuple[int, int, int] = (1, 1, 1)
    shared_B: int = 0
    info: dict = field(default_factory=dict)   # anything else the compiler reports
    _va: dict = field(default_factory=dict, repr=False)   # device -> code address

    @property
    def uniform_halves(self) -> int:
        return max((p.start_halves + p.size_halves for p in self.push), default=0)

    def code_bo(self, device):
        """The binary in the device's USC heap (uploaded on first use)."""
        bo = self._va.get(id(device))
        if bo is None:
            bo = device.bo_create(len(self.binary) + 64, usc=True, label=f"{self.stage} shader")
            bo.write(0, self.binary)
            self._va[id(device)] = bo
        return bo

    def release(self) -> None:
        """Drop the binaries' BOs (batches using them hold their own references)."""
        for bo in self._va.values():
            bo.release()
        self._va = {}


class ShaderCSO:
    """A pipe shader CSO: the variants of one shader, made on first use per key."""

    def __init__(self, state, compile_fn=None):
        self.state = state
        self.stage = state.stage
        self.prebuilt = state.ir if isinstance(state.ir, AgxShader) else None
        self._compile = compile_fn
        self._variants: dict[ShaderKey, AgxShader] = {}
        self._last: tuple | None = None     # (key, variant) of the last lookup: a draw's key is
        self._lock = threading.Lock()       # the same object draw after draw (encode's memos)
        self.hits = self.misses = 0

    def variant(self, key: ShaderKey) -> AgxShader:
        if self.prebuilt is not None:
            return self.prebuilt
        with self._lock:
            last = self._last
            if last is not None and last[0] is key:     # (no ShaderKey hash, a Python call)
                self.hits += 1
                return last[1]
            v = self._variants.get(key)
            if v is not None:
                self.hits += 1
                self._last = (key, v)
                return v
            self.misses += 1
            if self._compile is None:
                raise NotImplementedError("no shader compiler backend is available for GLSL shaders")
            v = self._variants[key] = self._compile(self.state, key)
            self._last = (key, v)
            return v

    def __len__(self):
        return len(self._variants)

    def release(self) -> None:
        for v in self._variants.values():
            v.release()
        if self.prebuilt is not None:
            self.prebuilt.release()
        self._variants, self._last = {}, None
