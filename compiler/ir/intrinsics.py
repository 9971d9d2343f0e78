"""The intrinsic table: every non-ALU, non-texture operation (I/O, memory,
system values, barriers, discard, variables).

An entry gives the sources (component counts, 0 = any), whether there is a
destination and its component count (0 = chosen by the builder), the named
constant indices in print order, and whether the instruction can be removed when
unused (``can_eliminate``) and moved or merged with an equal one (``can_reorder``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["IntrinsicInfo", "INTRINSICS", "INTERP_MODES", "ATOMIC_OPS", "SCOPES"]

INTERP_MODES = ("smooth", "flat", "noperspective")
# the f-ops treat memory as float32 (NV_shader_atomic_float, INTEL_shader_atomic_float_minmax)
ATOMIC_OPS = ("add", "imin", "umin", "imax", "umax", "and", "or", "xor", "xchg", "cmpxchg",
              "fadd", "fmin", "fmax", "fcmpxchg")
SCOPES = ("none", "subgroup", "workgroup", "device")


@dataclass(frozen=True)
class IntrinsicInfo:
    name: str
    src_components: tuple[int, ...]
    has_dest: bool
    dest_components: int = 0
    indices: tuple[str, ...] = ()
    can_eliminate: bool = False
    can_reorder: bool = False
    dest_bit_size: int = 0          # 0 = chosen by the builder (default 32)

    @property
    def num_srcs(self) -> int:
        return len(self.src_components)

    @property
    def has_side_effects(self) -> bool:
        return not self.can_eliminate


INTRINSICS: dict[str, IntrinsicInfo] = {}


def _intr(name, srcs=(), dest=False, dest_comps=0, indices=(), eliminate=False, reorder=False, dest_bits=0):
    assert name not in INTRINSICS, name
    INTRINSICS[name] = IntrinsicInfo(name, tuple(srcs), dest, dest_comps, tuple(indices),
                                     eliminate, reorder, dest_bits)


def _sysval(name, comps, bits=0):
    _intr(name, (), True, comps, (), True, True, bits)


# Variables (before lowering): the source is a deref.
_intr("load_deref", (1,), True, 0, (), eliminate=True)
_intr("store_deref", (1, 0), False, 0, ("write_mask",))

# Function parameters and return values (removed by inlining).
_intr("load_param", (), True, 0, ("param_idx",), eliminate=True, reorder=True)
_intr("return_value", (0,), False)

# Shader I/O. ``slot`` is the varying slot name (POS, VAR0, ...), ``base`` the driver location.
_intr("load_input", (1,), True, 0, ("base", "component", "slot", "interp"), eliminate=True, reorder=True)
# interpolateAt*: a fragment input interpolated at ``loc`` ("centroid", "at_sample": sample index
# ``where``, "at_offset": ``where`` = packHalf2x16 of the pixel offset); srcs (where, location offset).
_intr("load_interpolated_input", (1, 1), True, 0, ("base", "component", "slot", "interp", "loc"),
      eliminate=True, reorder=True)
_intr("store_output", (0, 1), False, 0, ("base", "component", "slot", "write_mask"))
_intr("load_uniform", (1,), True, 0, ("base", "range"), eliminate=True, reorder=True)
_intr("load_ubo", (1, 1), True, 0, ("align",), eliminate=True, reorder=True)

# Memory.
_intr("load_ssbo", (1, 1), True, 0, ("align",), eliminate=True)
_intr("store_ssbo", (0, 1, 1), False, 0, ("write_mask", "align"))
_intr("ssbo_atomic", (1, 1, 1), True, 1, ("atomic_op",))
_intr("ssbo_atomic_swap", (1, 1, 1, 1), True, 1, ("atomic_op",))
_intr("load_shared", (1,), True, 0, ("base", "align"), eliminate=True)
_intr("store_shared", (0, 1), False, 0, ("base", "write_mask", "align"))
_intr("shared_atomic", (1, 1), True, 1, ("base", "atomic_op"))
_intr("shared_atomic_swap", (1, 1, 1), True, 1, ("base", "atomic_op"))
_intr("load_scratch", (1,), True, 0, ("base", "align"), eliminate=True)
_intr("store_scratch", (0, 1), False, 0, ("base", "write_mask", "align"))
_intr("barrier", (), False, 0, ("execution_scope", "memory_scope"))

# Images (``image`` is the image slot).
_intr("image_load", (0, 1), True, 4, ("image", "dim", "is_array"), eliminate=True)
_intr("image_store", (0, 1, 4), False, 0, ("image", "dim", "is_array"))
_intr("image_atomic", (0, 1, 1), True, 1, ("image", "dim", "is_array", "atomic_op"))
_intr("image_atomic_swap", (0, 1, 1, 1), True, 1, ("image", "dim", "is_array", "atomic_op"))
_intr("image_size", (), True, 0, ("image", "dim", "is_array"), eliminate=True, reorder=True)
_intr("image_samples", (), True, 1, ("image", "dim", "is_array"), eliminate=True, reorder=True)
_intr("get_ssbo_size", (1,), True, 1, (), eliminate=True, reorder=True)
# Bytes of the range bound to uniform block ``index`` (robust buffer access: compiler/lower/robust_access.py).
_intr("get_ubo_size", (1,), True, 1, (), eliminate=True, reorder=True)
# Bytes of the default uniform block a dynamic ``load_uniform`` may read (robust buffer access).
_intr("get_uniform_size", (), True, 1, (), eliminate=True, reorder=True)
# Elements of the buffer texture or buffer image at texture descriptor ``descriptor``
# (the backend's lowering of buffer textures to 2D images: compiler/backend/texel_buffers.py).
_intr("load_texel_buffer_elements", (), True, 1, ("descriptor",), eliminate=True, reorder=True)
# The LOD state of the sampler at slot ``sampler`` as float32: (min LOD, max LOD, LOD bias,
# mip filter 0 none / 1 nearest / 2 linear) (textureQueryLod: compiler/ir/passes/tex.py).
_intr("load_sampler_lod_parameters", (), True, 4, ("sampler",), eliminate=True, reorder=True)

# Driver-level lowering (tile buffer for blending in the shader, vertex fetch).
_intr("load_tile", (), True, 0, ("rt", "format", "offset_B"), eliminate=True)
_intr("store_tile", (0,), False, 0, ("rt", "format", "offset_B", "write_mask"))
_intr("load_vbo", (1,), True, 0, ("buffer", "format"), eliminate=True, reorder=True)

# Cross-invocation vote over the active invocations of the SIMD group (ARB_shader_group_vote):
# ``mode`` any/all/eq of a boolean. Its result depends on which invocations are active, so it
# never moves across control flow (not reorderable), but an unused one may go.
_intr("vote", (1,), True, 1, ("mode",), eliminate=True, dest_bits=1)
# Cross-invocation reads within the SIMD group (ARB_shader_ballot; the ISA's simd): ``mode``
# ballot (mask of the active invocations whose a != 0), shuffle (a of invocation b), first
# (a of the first active invocation), lane (the invocation's index); 32-bit a and b.
_intr("simd", (1, 1), True, 1, ("mode",), eliminate=True, dest_bits=32)

# The GPU's cycle counter (ARB_shader_clock), low and high words: never moved or merged,
# so two reads in a row see it advance; an unused one may go.
_intr("shader_clock", (), True, 2, (), eliminate=True, reorder=False, dest_bits=32)

# Fragment control.
_intr("discard", (), False)
_intr("discard_if", (1,), False)

# System values.
_sysval("load_frag_coord", 4, 32)
_sysval("load_front_face", 1, 1)
_sysval("load_helper_invocation", 1, 1)
_sysval("load_point_coord", 2, 32)
_sysval("load_line_stipple", 1, 32)        # a line's stipple counter (source LINE_STIPPLE); -1 off lines
_sysval("load_sample_id", 1, 32)
_sysval("load_sample_pos", 2, 32)
_sysval("load_sample_mask_in", 1, 32)
_sysval("load_zs_depth", 1, 32)             # the depth buffer's value at the sample (float)
_sysval("load_zs_stencil", 1, 32)           # the stencil buffer's value at the sample (uint)
_sysval("load_primitive_id", 1, 32)         # the rasterised primitive's index in the draw
_sysval("load_vertex_id", 1, 32)
_sysval("load_instance_id", 1, 32)
_sysval("load_base_vertex", 1, 32)
_sysval("load_base_instance", 1, 32)
_sysval("load_local_invocation_id", 3, 32)
_sysval("load_local_invocation_index", 1, 32)
_sysval("load_global_invocation_id", 3, 32)
_sysval("load_workgroup_id", 3, 32)
_sysval("load_num_workgroups", 3, 32)
