"""Variables to SSA, and lowering of indirectly indexed local arrays.

``lower_vars_to_ssa`` turns every local (``function_temp``) variable whose
accesses are all direct (constant array indices) into SSA values, inserting phis
with Braun et al.'s algorithm ("Simple and Efficient Construction of Static
Single Assignment Form", 2013): blocks are visited in program order, each one is
*sealed* once all its predecessors have been visited (loop headers after their
loop body), and reads in unsealed blocks make operand-less phis completed at
sealing. Trivial phis are left for copy propagation.

``lower_indirect_derefs`` removes non-constant array indices from local
variables, either by an if-ladder of selects over the elements (small arrays) or by
placing the variable in per-invocation scratch memory (larger arrays).
"""

from __future__ import annotations

from ..builder import Builder
from ..core import (
    AluSrc, Block, Def, Deref, Function, If, Intrinsic, LoadConst, Loop, Phi, Shader, Undef, Variable,
    compute_cfg, first_block, replace_uses, walk_blocks, walk_instrs,
)
from ..types import ArrayType, StructType, VarType, VecType

__all__ = ["lower_vars_to_ssa", "lower_indirect_derefs", "scratch_size_B"]


def _const_index(d: Def) -> int | None:
    if isinstance(d.parent, LoadConst):
        v = d.parent.values[0]
        return v - (1 << 32) if v >= 1 << 31 else v
    return None


def _deref_uses_ok(func: Function) -> dict[Variable, bool]:
    """Per local variable: True when every deref of it is direct and used only as the
    address of a load_deref/store_deref or as the parent of another deref."""
    ok: dict[Variable, bool] = {v: True for v in func.locals if v.mode == "function_temp"}
    for instr in walk_instrs(func.body):
        if isinstance(instr, Deref):
            if instr.kind == "array" and _const_index(instr.index) is None and instr.var in ok:
                ok[instr.var] = False
            continue
        for i, d in enumerate(instr.sources()):
            if isinstance(d.parent, Deref) and d.parent.var in ok:
                allowed = isinstance(instr, Intrinsic) and instr.name in ("load_deref", "store_deref") and i == 0
                if not allowed:
                    ok[d.parent.var] = False
    return ok


def _leaf_key(deref: Deref) -> tuple:
    path = []
    for step in deref.path()[1:]:
        path.append(("a", _const_index(step.index)) if step.kind == "array" else ("s", step.field))
    return (deref.var, tuple(path))


class _SSABuilder:
    def __init__(self, func: Function):
        self.func = func
        self.cfg = compute_cfg(func.body)
        self.current: dict[tuple, Def] = {}
        self.sealed: set[Block] = set()
        self.incomplete: dict[Block, dict] = {}
        self.types: dict = {}
        self.entry = first_block(func.body)

    def write(self, key, block, value: Def) -> None:
        self.current[(key, block)] = value

    def read(self, key, block) -> Def:
        found = self.current.get((key, block))
        return found if found is not None else self._read_recursive(key, block)

    def _new_phi(self, key, block) -> Phi:
        t = self.types[key]
        phi = Phi(Def(t.components, t.bit_size))
        block.insert(len(block.phis()), phi)
        return phi

    def _read_recursive(self, key, block) -> Def:
        preds = self.cfg.preds[block]
        if block not in self.sealed:
            phi = self._new_phi(key, block)
            self.incomplete.setdefault(block, {})[key] = phi
            value = phi.dest
        elif len(preds) == 1:
            value = self.read(key, preds[0])
        elif not preds:
            t = self.types[key]
            u = Undef(t.components, t.bit_size)
            self.entry.insert(len(self.entry.phis()), u)
            value = u.dest
        else:
            phi = self._new_phi(key, block)
            self.write(key, block, phi.dest)
            self._add_operands(key, phi, block)
            value = phi.dest
        self.write(key, block, value)
        return value

    def _add_operands(self, key, phi: Phi, block) -> None:
        for pred in self.cfg.preds[block]:
            phi.srcs.append((pred, self.read(key, pred)))

    def seal(self, block) -> None:
        self.sealed.add(block)
        for key, phi in self.incomplete.pop(block, {}).items():
            self._add_operands(key, phi, block)


def lower_vars_to_ssa(shader: Shader) -> bool:
    """Replace direct-only local variables by SSA values (with phis)."""
    progress = False
    for func in shader.functions:
        ok = _deref_uses_ok(func)
        lowered = {v for v, good in ok.items() if good}
        if not lowered:
            continue
        progress = True
        ssa = _SSABuilder(func)
        mapping: dict[Def, Def] = {}

        def visit_block(block):
            for instr in list(block.instrs):
                instr.map_sources(lambda d: mapping.get(d, d))
                if not isinstance(instr, Intrinsic) or instr.name not in ("load_deref", "store_deref"):
                    continue
                deref = instr.srcs[0].parent
                if deref.var not in lowered:
                    continue
                key = _leaf_key(deref)
                ssa.types[key] = deref.type
                if instr.name == "load_deref":
                    mapping[instr.dest] = ssa.read(key, block)
                else:
                    value = instr.srcs[1]
                    comps = value.num_components
                    mask = instr.indices.get("write_mask", (1 << comps) - 1) & ((1 << comps) - 1)
                    if mask != (1 << comps) - 1:
                        old = ssa.read(key, block)
                        b = Builder(func).before(instr)
                        parts = [AluSrc(value if mask >> c & 1 else old, (c,)) for c in range(comps)]
                        value = b.alu(f"vec{comps}", *parts) if comps > 1 else (value if mask else old)
                    ssa.write(key, block, value)
                block.remove(instr)

        def visit_list(nodes, header=None):
            for node in nodes:
                if isinstance(node, Block):
                    visit_block(node)
                    if node is not header:
                        ssa.seal(node)
                elif isinstance(node, If):
                    visit_list(node.then_list)
                    visit_list(node.else_list)
                elif isinstance(node, Loop):
                    h = first_block(node.body)
                    visit_list(node.body, h)
                    ssa.seal(h)

        visit_list(func.body)
        replace_uses(func.body, mapping)
        for block in walk_blocks(func.body):
            for instr in list(block.instrs):
                if isinstance(instr, Deref) and instr.var in lowered:
                    block.remove(instr)
        func.locals = [v for v in func.locals if v not in lowered]
    return progress


# ---------------------------------------------------------------- indirect arrays

def scratch_size_B(t: VarType) -> int:
    """Bytes a value of type ``t`` takes in scratch (booleans as 32-bit words)."""
    if isinstance(t, VecType):
        return t.components * (4 if t.bit_size == 1 else t.bit_size // 8)
    if isinstance(t, ArrayType):
        return t.length * scratch_size_B(t.element)
    return sum(scratch_size_B(ft) for _n, ft in t.fields)


def _has_indirect(deref: Deref) -> bool:
    return any(s.kind == "array" and _const_index(s.index) is None for s in deref.path())


def lower_indirect_derefs(shader: Shader, max_ladder_length: int = 16) -> bool:
    """Remove non-constant indices into local arrays: an if-ladder of selects when
    the indexed array has at most ``max_ladder_length`` elements, otherwise scratch."""
    progress = False
    for func in shader.functions:
        indirect_vars = set()
        for instr in walk_instrs(func.body):
            if isinstance(instr, Deref) and instr.var.mode == "function_temp" and instr.kind == "array" \
                    and _const_index(instr.index) is None:
                indirect_vars.add(instr.var)
        to_scratch = {v for v in indirect_vars if _max_indirect_length(func, v) > max_ladder_length}
        if to_scratch:
            _lower_to_scratch(shader, func, to_scratch)
            progress = True
        changed = True
        while changed:
            changed = False
            mapping: dict[Def, Def] = {}
            for instr in walk_instrs(func.body):
                if isinstance(instr, Intrinsic) and instr.name in ("load_deref", "store_deref"):
                    instr.map_sources(lambda d: mapping.get(d, d))
                    deref = instr.srcs[0].parent
                    if deref.var in indirect_vars and deref.var not in to_scratch and _has_indirect(deref):
                        _ladder(func, instr, mapping)
                        changed = progress = True
            replace_uses(func.body, mapping)
        if progress:
            _remove_dead_derefs(func)
    return progress


def _max_indirect_length(func, var) -> int:
    longest = 0
    for instr in walk_instrs(func.body):
        if isinstance(instr, Deref) and instr.var is var and instr.kind == "array" and _const_index(instr.index) is None:
            longest = max(longest, instr.parent.parent.type.length)
    return longest


def _rebuild(b: Builder, path: list[Deref], level: int, index: Def) -> Def:
    """The deref ``path`` again, with the array step at ``level`` using ``index``."""
    d = b.deref_var(path[0].var)
    for i, step in enumerate(path[1:], 1):
        if step.kind == "array":
            d = b.deref_array(d, index if i == level else step.index)
        else:
            d = b.deref_struct(d, step.field)
    return d


def _ladder(func: Function, instr: Intrinsic, mapping: dict) -> None:
    path = instr.srcs[0].parent.path()
    level = next(i for i, s in enumerate(path) if s.kind == "array" and _const_index(s.index) is None)
    idx = path[level].index
    length = path[level].parent.parent.type.length
    b = Builder(func).before(instr)
    if instr.name == "load_deref":
        loads = [b.load_deref(_rebuild(b, path, level, b.iimm(i))) for i in range(length)]
        result = loads[-1]
        for i in range(length - 2, -1, -1):
            result = b.bcsel(b.ieq(idx, i), loads[i], result)
        mapping[instr.dest] = result
    else:
        value, mask = instr.srcs[1], instr.indices.get("write_mask")
        for i in range(length):
            elem = _rebuild(b, path, level, b.iimm(i))
            old = b.load_deref(elem)
            b.store_deref(elem, b.bcsel(b.ieq(idx, i), value, old), mask)
    instr.block.remove(instr)


def _remove_dead_derefs(func: Function) -> None:
    """Remove derefs nothing uses (repeatedly: a parent may die with its child)."""
    changed = True
    while changed:
        used = set()
        for instr in walk_instrs(func.body):
            used.update(instr.sources())
        changed = False
        for block in walk_blocks(func.body):
            keep = [i for i in block.instrs if not (isinstance(i, Deref) and i.dest not in used)]
            if len(keep) != len(block.instrs):
                for instr in block.instrs:
                    if isinstance(instr, Deref) and instr.dest not in used:
                        instr.block = None
                block.instrs = keep
                changed = True


def _lower_to_scratch(shader: Shader, func: Function, variables: set[Variable]) -> None:
    base_of = {}
    for var in func.locals:
        if var in variables:
            size = shader.info.get("scratch_size_B", 0)
            base_of[var] = size
            shader.info["scratch_size_B"] = size + scratch_size_B(var.type)
    mapping: dict[Def, Def] = {}
    for instr in list(walk_instrs(func.body)):
        if not (isinstance(instr, Intrinsic) and instr.name in ("load_deref", "store_deref")):
            continue
        deref = instr.srcs[0].parent
        if deref.var not in variables:
            continue
        b = Builder(func).before(instr)
        offset = b.iimm(0)
        for step in deref.path()[1:]:
            ptype = step.parent.parent.type
            if step.kind == "array":
                offset = b.iadd(offset, b.imul(step.index, scratch_size_B(ptype.element)))
            else:
                skip = sum(scratch_size_B(ft) for _n, ft in ptype.fields[:step.field])
                offset = b.iadd(offset, skip)
        t = deref.type
        if instr.name == "load_deref":
            bits = 32 if t.bit_size == 1 else t.bit_size
            v = b.load_scratch(offset, num_components=t.components, bit_size=bits, base=base_of[deref.var],
                               align=4)
            if t.bit_size == 1:
                v = b.i2b1(v)
            mapping[instr.dest] = v
        else:
            value = instr.srcs[1]
            if value.bit_size == 1:
                value = b.b2i32(value)
            mask = instr.indices.get("write_mask", (1 << value.num_components) - 1)
            b.store_scratch(value, offset, base=base_of[deref.var], write_mask=mask, align=4)
        instr.block.remove(instr)
    replace_uses(func.body, mapping)
    func.locals = [v for v in func.locals if v not in variables]
