"""The IR's data structures: SSA values, instructions, blocks, structured control
flow, functions, variables and the shader.

Control flow is structured as in NIR. A function body is a *cf list*: nodes that
alternate between a ``Block`` and an ``If`` or ``Loop``, beginning and ending with a
block. An ``If`` has a then-list and an else-list, a ``Loop`` a body list, each a cf
list with the same rule. A block may end with a ``Jump`` (``break`` or
``continue``), and a block ending with a jump is the last node of its list.
Predecessors and successors are derived from this structure (``compute_cfg``);
phis name their predecessor blocks.

SSA values (``Def``) have a bit size and a component count; their meaning as
float, int, uint or bool comes from the instructions that use them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Iterator

from .intrinsics import INTRINSICS
from .opcodes import OPS
from .types import ArrayType, StructType, VarType, VecType

__all__ = [
    "Def", "AluSrc", "Instr", "Alu", "LoadConst", "Undef", "Phi", "Intrinsic", "Tex", "Deref",
    "Call", "Jump", "Block", "If", "Loop", "CFNode", "Function", "Variable", "Shader",
    "VAR_MODES", "TEX_OPS", "TEX_SRC_KINDS", "SAMPLER_DIMS", "STAGES",
    "CFG", "compute_cfg", "walk_blocks", "walk_instrs", "walk_cf", "replace_uses",
    "clone_cf_list", "clone_shader", "identity_swizzle", "first_block", "last_block",
]

STAGES = ("vertex", "fragment", "compute")
VAR_MODES = ("function_temp", "shader_in", "shader_out", "uniform", "ubo", "ssbo", "shared")
TEX_OPS = ("tex", "txb", "txl", "txd", "txf", "txs", "tg4", "query_levels", "query_samples", "lod")
TEX_SRC_KINDS = ("coord", "lod", "bias", "ddx", "ddy", "comparator", "offset", "ms_index")
SAMPLER_DIMS = ("1d", "2d", "3d", "cube", "rect", "buf", "ms")

_def_ids = itertools.count()


class Def:
    """An SSA value: defined once by ``parent``; ``bit_size`` and ``num_components``."""
    __slots__ = ("num_components", "bit_size", "parent", "id")

    def __init__(self, num_components: int, bit_size: int, parent: "Instr | None" = None):
        self.num_components = num_components
        self.bit_size = bit_size
        self.parent = parent
        self.id = next(_def_ids)

    def __repr__(self) -> str:
        return f"<Def #{self.id} {self.bit_size}x{self.num_components}>"


def identity_swizzle(n: int) -> tuple[int, ...]:
    return tuple(range(n))


@dataclass
class AluSrc:
    """An ALU source: a value read through a swizzle (one entry per used component)."""
    def_: Def
    swizzle: tuple[int, ...]

    def compose(self, outer: tuple[int, ...]) -> "AluSrc":
        """This source read again through ``outer``."""
        return AluSrc(self.def_, tuple(self.swizzle[c] for c in outer))

    def is_identity(self) -> bool:
        return self.swizzle == identity_swizzle(self.def_.num_components)


class Instr:
    """Base of every instruction. ``dest`` is the value it defines, or None."""
    dest: Def | None = None
    block: "Block | None" = None

    def sources(self) -> list[Def]:
        """Every SSA value read (for ALU, the defs under the swizzles)."""
        raise NotImplementedError

    def map_sources(self, fn: Callable[[Def], Def]) -> None:
        """Replace every source value ``d`` by ``fn(d)`` (swizzles are kept)."""
        raise NotImplementedError

    def _own_dest(self, dest: Def | None) -> None:
        self.dest = dest
        if dest is not None:
            dest.parent = self


class Alu(Instr):
    def __init__(self, op: str, srcs: list[AluSrc], dest: Def, exact: bool = False):
        assert op in OPS, f"unknown ALU op {op!r}"
        self.op = op
        self.srcs = srcs
        self.exact = exact
        self._own_dest(dest)

    @property
    def info(self):
        return OPS[self.op]

    def sources(self):
        return [s.def_ for s in self.srcs]

    def map_sources(self, fn):
        for s in self.srcs:
            s.def_ = fn(s.def_)

    def src_components(self, i: int) -> int:
        """How many components source ``i`` reads."""
        size = self.info.input_sizes[i]
        return size if size else self.dest.num_components


class LoadConst(Instr):
    """Constant components, stored as raw bits (ints; bools for 1-bit values)."""

    def __init__(self, values: tuple[int, ...], bit_size: int):
        self.values = tuple(int(v) for v in values)
        self._own_dest(Def(len(values), bit_size, self))

    def sources(self):
        return []

    def map_sources(self, fn):
        pass


class Undef(Instr):
    def __init__(self, num_components: int, bit_size: int):
        self._own_dest(Def(num_components, bit_size, self))

    def sources(self):
        return []

    def map_sources(self, fn):
        pass


class Phi(Instr):
    """Chooses a value by the predecessor block control came from. Phis are at the
    start of their block; ``srcs`` has one (block, value) pair per predecessor."""

    def __init__(self, dest: Def, srcs: list[tuple["Block", Def]] | None = None):
        self.srcs = list(srcs or [])
        self._own_dest(dest)

    def sources(self):
        return [d for _b, d in self.srcs]

    def map_sources(self, fn):
        self.srcs = [(b, fn(d)) for b, d in self.srcs]

    def src_for(self, block: "Block") -> Def:
        for b, d in self.srcs:
            if b is block:
                return d
        raise KeyError("phi has no source for that block")


class Intrinsic(Instr):
    def __init__(self, name: str, srcs: list[Def], dest: Def | None = None, **indices):
        info = INTRINSICS.get(name)
        assert info is not None, f"unknown intrinsic {name!r}"
        self.name = name
        self.srcs = list(srcs)
        unknown = set(indices) - set(info.indices)
        assert not unknown, f"{name} has no indices {sorted(unknown)}"
        self.indices = {k: indices[k] for k in info.indices if k in indices}
        self._own_dest(dest)

    @property
    def info(self):
        return INTRINSICS[self.name]

    def sources(self):
        return list(self.srcs)

    def map_sources(self, fn):
        self.srcs = [fn(d) for d in self.srcs]


class Tex(Instr):
    """A texture operation. ``srcs`` is a list of (kind, value), kinds from TEX_SRC_KINDS."""

    def __init__(self, op: str, srcs: list[tuple[str, Def]], dest: Def, *, texture: int = 0,
                 sampler: int = 0, dim: str = "2d", is_array: bool = False, is_shadow: bool = False,
                 dest_type: str = "float", component: int = 0):
        assert op in TEX_OPS, f"unknown texture op {op!r}"
        assert dim in SAMPLER_DIMS, f"unknown sampler dim {dim!r}"
        for kind, _d in srcs:
            assert kind in TEX_SRC_KINDS, f"unknown texture source {kind!r}"
        self.op, self.srcs = op, list(srcs)
        self.texture, self.sampler, self.dim = texture, sampler, dim
        self.is_array, self.is_shadow, self.dest_type, self.component = is_array, is_shadow, dest_type, component
        self._own_dest(dest)

    def src(self, kind: str) -> Def | None:
        for k, d in self.srcs:
            if k == kind:
                return d
        return None

    def sources(self):
        return [d for _k, d in self.srcs]

    def map_sources(self, fn):
        self.srcs = [(k, fn(d)) for k, d in self.srcs]


@dataclass(eq=False)
class Variable:
    """A variable before vars->SSA / I/O lowering. ``data`` holds location, binding,
    interpolation mode, varying slot and the like."""
    name: str
    type: VarType
    mode: str
    data: dict = field(default_factory=dict)

    def __post_init__(self):
        assert self.mode in VAR_MODES, f"unknown variable mode {self.mode!r}"


class Deref(Instr):
    """A path to (part of) a variable: ``var`` (root), ``array`` (element ``index`` of
    the parent deref), ``struct`` (field ``field`` of the parent). The dest is a
    32-bit scalar standing for the address; ``type`` is the type reached."""

    def __init__(self, kind: str, *, var: Variable | None = None, parent: Def | None = None,
                 index: Def | None = None, field_index: int = 0):
        self.kind, self.var, self.parent, self.index, self.field = kind, var, parent, index, field_index
        if kind == "var":
            assert var is not None
            self.type = var.type
        else:
            assert parent is not None and isinstance(parent.parent, Deref), "deref parent must be a deref"
            ptype = parent.parent.type
            if kind == "array":
                assert isinstance(ptype, ArrayType) and index is not None, "array deref of a non-array"
                self.type = ptype.element
            else:
                assert kind == "struct" and isinstance(ptype, StructType), "struct deref of a non-struct"
                self.type = ptype.fields[field_index][1]
            self.var = parent.parent.var
        self._own_dest(Def(1, 32, self))

    @property
    def mode(self) -> str:
        return self.var.mode

    def sources(self):
        return [d for d in (self.parent, self.index) if d is not None]

    def map_sources(self, fn):
        if self.parent is not None:
            self.parent = fn(self.parent)
        if self.index is not None:
            self.index = fn(self.index)

    def path(self) -> list["Deref"]:
        """The chain of derefs from the variable down to this one."""
        chain = [self]
        while chain[-1].kind != "var":
            chain.append(chain[-1].parent.parent)
        return chain[::-1]


class Call(Instr):
    def __init__(self, callee: "Function", args: list[Def], dest: Def | None = None):
        self.callee, self.args = callee, list(args)
        self._own_dest(dest)

    def sources(self):
        return list(self.args)

    def map_sources(self, fn):
        self.args = [fn(d) for d in self.args]


class Jump(Instr):
    def __init__(self, kind: str):
        assert kind in ("break", "continue"), f"unknown jump {kind!r}"
        self.kind = kind

    def sources(self):
        return []

    def map_sources(self, fn):
        pass


class Block:
    """A basic block: phis first, then instructions, optionally a final jump."""
    _ids = itertools.count()

    def __init__(self, instrs: list[Instr] | None = None):
        self.instrs: list[Instr] = []
        self.id = next(Block._ids)
        for i in instrs or []:
            self.append(i)

    def append(self, instr: Instr) -> Instr:
        instr.block = self
        self.instrs.append(instr)
        return instr

    def insert(self, index: int, instr: Instr) -> Instr:
        instr.block = self
        self.instrs.insert(index, instr)
        return instr

    def remove(self, instr: Instr) -> None:
        self.instrs.remove(instr)
        instr.block = None

    def phis(self) -> list[Phi]:
        return [i for i in self.instrs if isinstance(i, Phi)]

    def jump(self) -> Jump | None:
        return self.instrs[-1] if self.instrs and isinstance(self.instrs[-1], Jump) else None

    def __repr__(self) -> str:
        return f"<Block #{self.id}>"


class If:
    def __init__(self, cond: Def, then_list: list | None = None, else_list: list | None = None):
        self.cond = cond
        self.then_list: list[CFNode] = then_list if then_list is not None else [Block()]
        self.else_list: list[CFNode] = else_list if else_list is not None else [Block()]


class Loop:
    def __init__(self, body: list | None = None):
        self.body: list[CFNode] = body if body is not None else [Block()]


CFNode = Block | If | Loop


class Function:
    """``params``: (components, bit size) of each parameter, read with ``load_param``;
    ``ret``: (components, bit size) of the value given to ``return_value`` or None."""

    def __init__(self, name: str, params: list[tuple[int, int]] | None = None,
                 ret: tuple[int, int] | None = None):
        self.name = name
        self.params = list(params or [])
        self.ret = ret
        self.body: list[CFNode] = [Block()]
        self.locals: list[Variable] = []


class Shader:
    def __init__(self, stage: str, name: str = ""):
        assert stage in STAGES, f"unknown stage {stage!r}"
        self.stage = stage
        self.name = name
        self.functions: list[Function] = []
        self.variables: list[Variable] = []
        self.info: dict = {}

    @property
    def main(self) -> Function:
        for f in self.functions:
            if f.name == "main":
                return f
        raise KeyError("shader has no main function")

    def function(self, name: str) -> Function:
        for f in self.functions:
            if f.name == name:
                return f
        raise KeyError(name)


# ---------------------------------------------------------------- traversal

def walk_cf(cf_list: list[CFNode]) -> Iterator[CFNode]:
    """Every cf node in program order, depth first. A loop over a stack of list
    iterators, not nested generators: each node costs O(1) however deep it is."""
    stack = [iter(cf_list)]
    while stack:
        for node in stack[-1]:
            yield node
            if isinstance(node, If):
                stack.append(iter(node.else_list))
                stack.append(iter(node.then_list))
                break
            if isinstance(node, Loop):
                stack.append(iter(node.body))
                break
        else:
            stack.pop()


def walk_blocks(cf_list: list[CFNode]) -> Iterator[Block]:
    for node in walk_cf(cf_list):
        if isinstance(node, Block):
            yield node


def walk_instrs(cf_list: list[CFNode]) -> Iterator[Instr]:
    """Every instruction in program order (a snapshot per block, so removing is safe)."""
    for block in walk_blocks(cf_list):
        yield from list(block.instrs)


def first_block(cf_list: list[CFNode]) -> Block:
    node = cf_list[0]
    assert isinstance(node, Block), "a cf list starts with a block"
    return node


def last_block(cf_list: list[CFNode]) -> Block:
    node = cf_list[-1]
    assert isinstance(node, Block), "a cf list ends with a block"
    return node


@dataclass
class CFG:
    """Predecessors and successors of every block, derived from the structure."""
    preds: dict[Block, list[Block]]
    succs: dict[Block, list[Block]]
    parent_loop: dict[Block, Loop | None]


def compute_cfg(cf_list: list[CFNode]) -> CFG:
    preds: dict[Block, list[Block]] = {}
    succs: dict[Block, list[Block]] = {}
    parent_loop: dict[Block, Loop | None] = {}

    def edge(a: Block, b: Block | None):
        if b is not None:
            succs[a].append(b)
            preds[b].append(a)

    for b in walk_blocks(cf_list):
        preds[b], succs[b] = [], []

    def link(nodes, next_block, loop, loop_after):
        for i, node in enumerate(nodes):
            following = nodes[i + 1] if i + 1 < len(nodes) else None
            if isinstance(node, Block):
                parent_loop[node] = loop
                jump = node.jump()
                if jump is not None:
                    edge(node, first_block(loop.body) if jump.kind == "continue" else loop_after)
                elif isinstance(following, If):
                    edge(node, first_block(following.then_list))
                    edge(node, first_block(following.else_list))
                elif isinstance(following, Loop):
                    edge(node, first_block(following.body))
                elif following is None:
                    edge(node, next_block)
            elif isinstance(node, If):
                after = following if isinstance(following, Block) else None
                link(node.then_list, after, loop, loop_after)
                link(node.else_list, after, loop, loop_after)
            elif isinstance(node, Loop):
                after = following if isinstance(following, Block) else None
                link(node.body, first_block(node.body), node, after)

    link(cf_list, None, None, None)
    return CFG(preds, succs, parent_loop)


def replace_uses(cf_list: list[CFNode], mapping: dict[Def, Def]) -> None:
    """Rewrite every use of a key of ``mapping`` (sources and if-conditions)."""
    if not mapping:
        return

    def resolve(d: Def) -> Def:
        seen = 0
        while d in mapping:
            d = mapping[d]
            seen += 1
            assert seen < 10000, "cycle in replacement map"
        return d

    for node in walk_cf(cf_list):
        if isinstance(node, Block):
            for instr in node.instrs:
                instr.map_sources(resolve)
        elif isinstance(node, If):
            node.cond = resolve(node.cond)


# ---------------------------------------------------------------- cloning

def clone_cf_list(cf_list: list[CFNode], def_map: dict[Def, Def] | None = None,
                  block_map: dict[Block, Block] | None = None,
                  var_map: dict[Variable, Variable] | None = None) -> list[CFNode]:
    """Deep copy of a cf list. Values defined outside it map through ``def_map``
    (kept as they are when absent), as do variables through ``var_map``. Both maps are
    filled with the new definitions, so a caller can find the copies."""
    def_map = {} if def_map is None else def_map
    block_map = {} if block_map is None else block_map
    var_map = {} if var_map is None else var_map
    phis: list[tuple[Phi, Phi]] = []

    def m(d: Def) -> Def:
        return def_map.get(d, d)

    def new_dest(d: Def | None) -> Def | None:
        if d is None:
            return None
        nd = Def(d.num_components, d.bit_size)
        def_map[d] = nd
        return nd

    def clone_instr(i: Instr) -> Instr:
        if isinstance(i, Alu):
            return Alu(i.op, [AluSrc(m(s.def_), s.swizzle) for s in i.srcs], new_dest(i.dest), i.exact)
        if isinstance(i, LoadConst):
            c = LoadConst(i.values, i.dest.bit_size)
            def_map[i.dest] = c.dest
            return c
        if isinstance(i, Undef):
            c = Undef(i.dest.num_components, i.dest.bit_size)
            def_map[i.dest] = c.dest
            return c
        if isinstance(i, Phi):
            c = Phi(new_dest(i.dest))
            phis.append((i, c))
            return c
        if isinstance(i, Intrinsic):
            return Intrinsic(i.name, [m(s) for s in i.srcs], new_dest(i.dest), **i.indices)
        if isinstance(i, Tex):
            return Tex(i.op, [(k, m(d)) for k, d in i.srcs], new_dest(i.dest), texture=i.texture,
                       sampler=i.sampler, dim=i.dim, is_array=i.is_array, is_shadow=i.is_shadow,
                       dest_type=i.dest_type, component=i.component)
        if isinstance(i, Deref):
            if i.kind == "var":
                c = Deref("var", var=var_map.get(i.var, i.var))
            else:
                c = Deref(i.kind, parent=m(i.parent), index=m(i.index) if i.index else None,
                          field_index=i.field)
            def_map[i.dest] = c.dest
            return c
        if isinstance(i, Call):
            return Call(i.callee, [m(a) for a in i.args], new_dest(i.dest))
        if isinstance(i, Jump):
            return Jump(i.kind)
        raise TypeError(f"cannot clone {i!r}")

    def clone_list(nodes):
        out = []
        for node in nodes:
            if isinstance(node, Block):
                nb = Block()
                block_map[node] = nb
                for i in node.instrs:
                    nb.append(clone_instr(i))
                out.append(nb)
            elif isinstance(node, If):
                out.append(If(m(node.cond), clone_list(node.then_list), clone_list(node.else_list)))
            else:
                out.append(Loop(clone_list(node.body)))
        return out

    result = clone_list(cf_list)
    for old, new in phis:
        new.srcs = [(block_map.get(b, b), m(d)) for b, d in old.srcs]
    return result


def clone_shader(shader: Shader) -> Shader:
    """A deep copy of a shader (variables, functions, calls between them)."""
    new = Shader(shader.stage, shader.name)
    new.info = dict(shader.info)
    var_map: dict[Variable, Variable] = {}
    for v in shader.variables:
        var_map[v] = Variable(v.name, v.type, v.mode, dict(v.data))
        new.variables.append(var_map[v])
    func_map: dict[Function, Function] = {}
    for f in shader.functions:
        func_map[f] = Function(f.name, f.params, f.ret)
        new.functions.append(func_map[f])
    for f in shader.functions:
        nf = func_map[f]
        local_map = dict(var_map)
        for v in f.locals:
            local_map[v] = Variable(v.name, v.type, v.mode, dict(v.data))
            nf.locals.append(local_map[v])
        nf.body = clone_cf_list(f.body, {}, {}, local_map)
        for instr in walk_instrs(nf.body):
            if isinstance(instr, Call):
                instr.callee = func_map.get(instr.callee, instr.callee)
    return new
