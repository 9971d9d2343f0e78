"""Lowering variable access of shader interfaces to explicit I/O intrinsics.

After this pass no deref of an ``shader_in``, ``shader_out``, ``uniform``, ``ubo``,
``ssbo`` or ``shared`` variable is left:

* inputs and outputs become ``load_input`` / ``store_output`` with a location
  offset (one location per vector; arrays and struct members take consecutive
  locations); ``base`` is ``data["driver_location"]`` (else ``data["location"]``,
  else assigned in declaration order), ``slot`` and ``interp`` come from ``data``;
* default-block uniforms become ``load_uniform`` at a byte offset; the pass lays
  them out with std430 rules and records ``data["offset_B"]`` and
  ``shader.info["uniform_size_B"]``;
* ``ubo`` / ``ssbo`` block variables become ``load_ubo`` / ``load_ssbo`` /
  ``store_ssbo`` with the block index ``data["binding"]`` (a ``block_array``
  variable: binding + its element index, which may be dynamic; the indices it can
  reach go to ``shader.info["dynamic_buffers"]``) and std140 (UBO) or
  std430 (SSBO) offsets (``data["packing"]`` overrides), from byte
  ``data["offset_B"]`` of the buffer (default 0: default-block uniforms read from
  UBO 0 each have their own variable);
* ``shared`` variables become ``load_shared`` / ``store_shared`` (std430), with
  ``shader.info["shared_size_B"]``.

Booleans live in memory as 32-bit 0/1. The driver's I/O lowering (varying slot
assignment, uniform registers vs UBO, vertex fetch, blending) builds on this.
"""

from __future__ import annotations

from ..builder import Builder
from ..core import Deref, Def, Intrinsic, LoadConst, Shader, Variable, replace_uses, walk_blocks
from ..types import ArrayType, StructType, VarType, VecType
from .vars import _remove_dead_derefs

__all__ = ["lower_io", "type_layout", "member_offset_B", "deref_offset", "buffer_address", "dynamic_buffers",
           "IO_MODES"]

IO_MODES = ("shader_in", "shader_out", "uniform", "ubo", "ssbo", "shared")


def _round_up(x: int, a: int) -> int:
    return (x + a - 1) // a * a


def type_layout(t: VarType, packing: str = "std430") -> tuple[int, int]:
    """(size_B, align_B) of ``t`` under std140 or std430 rules."""
    if isinstance(t, VecType):
        n = 4 if t.bit_size == 1 else t.bit_size // 8
        align = n * (4 if t.components == 3 else t.components)
        return n * t.components, align
    if isinstance(t, ArrayType):
        size, align = type_layout(t.element, packing)
        if packing == "std140":
            align = _round_up(align, 16)
        stride = _round_up(size, align)
        return stride * t.length, align
    offset, align = 0, 1
    for i, (_n, ft) in enumerate(t.fields):
        fsize, falign = type_layout(ft, packing)
        offset = (t.offsets_B[i] if t.offsets_B is not None else _round_up(offset, falign)) + fsize
        align = max(align, falign)
    if packing == "std140":
        align = _round_up(align, 16)
    return _round_up(offset, align), align


def member_offset_B(t: StructType, field: int, packing: str) -> int:
    if t.offsets_B is not None:         # placed by the shader (offset/align qualifiers)
        return t.offsets_B[field]
    offset = 0
    for i, (_n, ft) in enumerate(t.fields):
        fsize, falign = type_layout(ft, packing)
        offset = _round_up(offset, falign)
        if i == field:
            return offset
        offset += fsize
    raise IndexError(field)


def _locations(t: VarType) -> int:
    """Locations of an interface type: one per vector, two for a 64-bit vector of more
    than two components (GL 4.6 section 11.1.2.1: a dvec3/dvec4 takes two)."""
    if isinstance(t, VecType):
        return 2 if t.bit_size == 64 and t.components > 2 else 1
    if isinstance(t, ArrayType):
        return t.length * _locations(t.element)
    return sum(_locations(ft) for _n, ft in t.fields)


def _offset(b: Builder, deref: Deref, unit: str, packing: str, base: int = 0, skip: int = 0) -> Def:
    """Offset of ``deref`` from its variable (plus ``base``; the first ``skip`` steps
    left out): in locations or in bytes."""
    const, dynamic = base, []
    for step in deref.path()[1 + skip:]:
        ptype = step.parent.parent.type
        if step.kind == "array":
            if unit == "location":
                stride = _locations(ptype.element)
            else:
                size, align = type_layout(ptype.element, packing)
                stride = _round_up(size, _round_up(align, 16) if packing == "std140" else align)
            idx = step.index
            if isinstance(idx.parent, LoadConst):
                v = idx.parent.values[0]
                const += (v - (1 << 32) if v >= 1 << 31 else v) * stride
            else:
                dynamic.append(b.imul(idx, stride))
        else:
            if unit == "location":
                const += sum(_locations(ft) for _n, ft in ptype.fields[:step.field])
            else:
                const += member_offset_B(ptype, step.field, packing)
    result = b.iimm(const)
    for d in dynamic:
        result = b.iadd(result, d)
    return result


deref_offset = _offset      # public name (the driver's I/O lowering uses it)


def buffer_address(b: Builder, deref: Deref, var: Variable) -> tuple[Def, Def]:
    """(buffer index, byte offset) of a deref of a ``ubo``/``ssbo`` variable. A
    variable with ``data["block_array"]`` is a whole array of blocks, one buffer per
    element from ``binding``: its first (array) step picks the buffer."""
    data = var.data
    packing = data.get("packing", "std140" if var.mode == "ubo" else "std430")
    if not data.get("block_array"):
        return b.iimm(data.get("binding", 0)), _offset(b, deref, "byte", packing, data.get("offset_B", 0))
    path = deref.path()
    assert len(path) > 1 and path[1].kind == "array", "a block array is reached through an element"
    index = b.iadd(b.iimm(data.get("binding", 0)), path[1].index)
    return index, _offset(b, deref, "byte", packing, data.get("offset_B", 0), skip=1)


def dynamic_buffers(shader: Shader) -> dict[str, list[int]]:
    """The buffer indices a dynamically indexed block array may reach, per mode."""
    out: dict[str, list[int]] = {}
    for var in shader.variables:
        if var.mode in ("ubo", "ssbo") and var.data.get("block_array"):
            first = var.data.get("binding", 0)
            out.setdefault(var.mode, []).extend(range(first, first + var.type.length))
    return {k: sorted(set(v)) for k, v in out.items()}


def _assign_layouts(shader: Shader) -> None:
    next_loc = {"shader_in": 0, "shader_out": 0}
    uniform_end, shared_end = 0, 0
    for var in shader.variables:
        if var.mode in next_loc and "driver_location" not in var.data:
            loc = var.data.get("location", next_loc[var.mode])
            var.data["driver_location"] = loc
            next_loc[var.mode] = max(next_loc[var.mode], loc + _locations(var.type))
        elif var.mode == "uniform" and "offset_B" not in var.data:
            size, align = type_layout(var.type, "std430")
            var.data["offset_B"] = _round_up(uniform_end, align)
            uniform_end = var.data["offset_B"] + size
        elif var.mode == "shared" and "offset_B" not in var.data:
            size, align = type_layout(var.type, "std430")
            var.data["offset_B"] = _round_up(shared_end, align)
            shared_end = var.data["offset_B"] + size
    shader.info["uniform_size_B"] = max(shader.info.get("uniform_size_B", 0), uniform_end)
    shader.info["shared_size_B"] = max(shader.info.get("shared_size_B", 0), shared_end)


def lower_io(shader: Shader, modes: tuple[str, ...] = IO_MODES) -> bool:
    """Replace load_deref/store_deref of interface variables by I/O intrinsics."""
    _assign_layouts(shader)
    dyn = dynamic_buffers(shader)
    if dyn:
        shader.info["dynamic_buffers"] = dyn
    progress = False
    for func in shader.functions:
        mapping: dict[Def, Def] = {}
        for block in list(walk_blocks(func.body)):
            # one pass per block, in time linear in its length: the accesses are lowered in
            # order, each with the block holding what precedes it plus the access itself
            # (the builder emits before it), then the access is dropped
            old, block.instrs = block.instrs, []
            for instr in old:
                lower = (isinstance(instr, Intrinsic) and instr.name in ("load_deref", "store_deref")
                         and instr.srcs[0].parent.var.mode in modes)
                block.instrs.append(instr)
                if not lower:
                    continue
                deref = instr.srcs[0].parent
                b = Builder(func, shader)
                b.block, b.index = block, len(block.instrs) - 1
                result = _lower_access(b, instr, deref, deref.var)
                if result is not None:
                    mapping[instr.dest] = result
                assert block.instrs[-1] is instr
                block.instrs.pop()
                instr.block = None
                progress = True
        replace_uses(func.body, mapping)
        if progress:
            _remove_dead_derefs(func)
    return progress


def _lower_access(b: Builder, instr: Intrinsic, deref: Deref, var: Variable) -> Def | None:
    """Emit the access; returns the loaded value (None for a store)."""
    t: VecType = deref.type
    is_load = instr.name == "load_deref"
    mem_bits = 32 if t.bit_size == 1 else t.bit_size
    value = None if is_load else instr.srcs[1]
    if value is not None and value.bit_size == 1:
        value = b.b2i32(value)
    mask = None if is_load else instr.indices.get("write_mask", (1 << t.components) - 1)
    mode, data = var.mode, var.data
    result = None
    if mode in ("shader_in", "shader_out"):
        offset = _offset(b, deref, "location", "")
        slot = data.get("slot", var.name)
        if mode == "shader_in":
            result = b.load_input(offset, num_components=t.components, bit_size=mem_bits,
                                  base=data["driver_location"], component=data.get("component", 0),
                                  slot=slot, interp=data.get("interp", "smooth"))
        else:
            b.store_output(value, offset, base=data["driver_location"], component=data.get("component", 0),
                           slot=slot, write_mask=mask)
    elif mode == "uniform":
        offset = _offset(b, deref, "byte", "std430")
        size, _a = type_layout(var.type, "std430")
        result = b.load_uniform(offset, num_components=t.components, bit_size=mem_bits,
                                base=data["offset_B"], range=size)
    elif mode in ("ubo", "ssbo"):
        packing = data.get("packing", "std140" if mode == "ubo" else "std430")
        index, offset = buffer_address(b, deref, var)
        _s, align = type_layout(t, packing)
        if is_load:
            result = b.intrinsic(f"load_{mode}", index, offset, num_components=t.components,
                                 bit_size=mem_bits, align=align)
        else:
            assert mode == "ssbo", "uniform blocks are read-only"
            b.store_ssbo(value, index, offset, write_mask=mask, align=align)
    else:   # shared
        offset = _offset(b, deref, "byte", "std430")
        _s, align = type_layout(t, "std430")
        if is_load:
            result = b.load_shared(offset, num_components=t.components, bit_size=mem_bits,
                                   base=data["offset_B"], align=align)
        else:
            b.store_shared(value, offset, base=data["offset_B"], write_mask=mask, align=align)
    if result is not None and t.bit_size == 1:
        result = b.i2b1(result)
    return result
