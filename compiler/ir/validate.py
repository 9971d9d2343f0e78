"""The validator: checks the invariants every pass must keep.

* structure: cf lists alternate blocks and ifs/loops, begin and end with a block;
  a jump ends its block and its block ends its list; jumps only inside loops;
* SSA: every value is defined once, by the instruction that owns it, and every use
  is dominated by the definition (a phi's source by the end of its predecessor);
* phis: at the start of a block, one source per predecessor;
* types: component counts, swizzles and bit sizes of ALU sources against the op
  table; intrinsic, texture, deref and call operands.

``validate_shader`` raises ``ValidationError`` listing every problem. Passes run it
after every pass when ``debug_validate()`` is true (``SHIMGL_DEBUG`` contains
``validate``; the IR tests always set it).
"""

from __future__ import annotations


from uapi.debug import debug_enabled

from .core import (
    Alu, Block, Call, Deref, Function, If, Intrinsic, Jump, LoadConst, Loop, Phi, Shader, Tex,
    compute_cfg, first_block, walk_blocks,
)
from .opcodes import parse_type_spec
from .types import VecType

__all__ = ["ValidationError", "validate_shader", "validate_function", "debug_validate", "dominators"]


class ValidationError(Exception):
    pass


def debug_validate() -> bool:
    return debug_enabled("validate")


def dominators(func: Function) -> dict[Block, set[Block]]:
    """Dominator sets of the reachable blocks (iterative, in program order)."""
    cfg = compute_cfg(func.body)
    blocks = list(walk_blocks(func.body))
    entry = first_block(func.body)
    reachable = {entry}
    stack = [entry]
    while stack:
        b = stack.pop()
        for s in cfg.succs[b]:
            if s not in reachable:
                reachable.add(s)
                stack.append(s)
    order = [b for b in blocks if b in reachable]
    dom = {b: set(order) for b in order}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            preds = [p for p in cfg.preds[b] if p in reachable]
            new = set.intersection(*(dom[p] for p in preds)) if preds else set()
            new = new | {b}
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


def validate_shader(shader: Shader) -> None:
    errors = []
    names = set()
    for v in shader.variables:
        if v.name in names:
            errors.append(f"variable {v.name} declared twice")
        names.add(v.name)
    for func in shader.functions:
        errors.extend(_function_errors(func))
    if errors:
        from .printer import print_shader
        raise ValidationError("\n".join(errors) + "\n\n" + print_shader(shader))


def validate_function(func: Function) -> None:
    errors = _function_errors(func)
    if errors:
        from .printer import print_function
        raise ValidationError("\n".join(errors) + "\n\n" + print_function(func))


def _function_errors(func: Function) -> list[str]:
    errors: list[str] = []
    err = errors.append
    fname = func.name

    # ---- structure
    def check_list(nodes, in_loop, where):
        if not nodes or not isinstance(nodes[0], Block) or not isinstance(nodes[-1], Block):
            err(f"{fname}: {where}: a cf list must begin and end with a block")
        for i, node in enumerate(nodes):
            if i and isinstance(node, Block) == isinstance(nodes[i - 1], Block):
                err(f"{fname}: {where}: blocks and ifs/loops must alternate")
            if isinstance(node, Block):
                for j, instr in enumerate(node.instrs):
                    if instr.block is not node:
                        err(f"{fname}: instruction {type(instr).__name__} does not know its block")
                    if isinstance(instr, Jump):
                        if j != len(node.instrs) - 1:
                            err(f"{fname}: a jump must end its block")
                        if i != len(nodes) - 1:
                            err(f"{fname}: a block ending in a jump must end its cf list")
                        if not in_loop:
                            err(f"{fname}: {instr.kind} outside a loop")
            elif isinstance(node, If):
                check_list(node.then_list, in_loop, "then")
                check_list(node.else_list, in_loop, "else")
            elif isinstance(node, Loop):
                check_list(node.body, True, "loop")
            else:
                err(f"{fname}: unknown cf node {node!r}")

    check_list(func.body, False, "body")
    if errors:
        return errors

    # ---- definitions
    cfg = compute_cfg(func.body)
    where: dict = {}
    for block in walk_blocks(func.body):
        seen_non_phi = False
        for idx, instr in enumerate(block.instrs):
            if isinstance(instr, Phi):
                if seen_non_phi:
                    err(f"{fname}: phi after a non-phi instruction")
            else:
                seen_non_phi = True
            if instr.dest is not None:
                if instr.dest in where:
                    err(f"{fname}: value defined twice")
                if instr.dest.parent is not instr:
                    err(f"{fname}: a value's parent is not the instruction defining it")
                where[instr.dest] = (block, idx)

    dom = dominators(func)

    def dominated(d, block, idx) -> bool:
        if d not in where:
            return False
        dblock, didx = where[d]
        if block not in dom:          # unreachable code: no constraint
            return True
        if dblock is block:
            return didx < idx
        return dblock in dom[block]

    # ---- uses and types
    for node_block in walk_blocks(func.body):
        for idx, instr in enumerate(node_block.instrs):
            label = _Label(fname, instr)
            if isinstance(instr, Phi):
                preds = cfg.preds[node_block]
                src_blocks = [b for b, _d in instr.srcs]
                if len(src_blocks) != len(preds) or set(src_blocks) != set(preds):
                    err(f"{label}: sources do not match the predecessors")
                for b, d in instr.srcs:
                    if d not in where:
                        err(f"{label}: source is not defined in this function")
                    elif b in dom and not dominated(d, b, len(b.instrs) + 1):
                        err(f"{label}: source does not dominate its predecessor")
                    if (d.bit_size, d.num_components) != (instr.dest.bit_size, instr.dest.num_components):
                        err(f"{label}: source size differs from the destination")
                continue
            for d in instr.sources():
                if not dominated(d, node_block, idx):
                    err(f"{label}: uses a value that does not dominate it")
            errors.extend(_type_errors(instr, label, func))

    for node in _walk_ifs(func.body):
        c = node.cond
        if (c.bit_size, c.num_components) != (1, 1):
            err(f"{fname}: if condition must be a 1-bit scalar")
        # the block before the if is the one that evaluates the condition
    for before, node in _blocks_before_ifs(func.body):
        if not dominated(node.cond, before, len(before.instrs) + 1):
            err(f"{fname}: if condition does not dominate the if")
    return errors


class _Label:
    """The name of an instruction in messages, formatted only when one is needed."""
    __slots__ = ("fname", "instr")

    def __init__(self, fname, instr):
        self.fname, self.instr = fname, instr

    def __format__(self, spec) -> str:
        i = self.instr
        extra = f" {i.op}" if isinstance(i, Alu) else f" {i.name}" if isinstance(i, Intrinsic) else ""
        return f"{self.fname}: {type(i).__name__}{extra}"


def _walk_ifs(nodes):
    for node in nodes:
        if isinstance(node, If):
            yield node
            yield from _walk_ifs(node.then_list)
            yield from _walk_ifs(node.else_list)
        elif isinstance(node, Loop):
            yield from _walk_ifs(node.body)


def _blocks_before_ifs(nodes):
    for i, node in enumerate(nodes):
        if isinstance(node, If):
            if i and isinstance(nodes[i - 1], Block):
                yield nodes[i - 1], node
            yield from _blocks_before_ifs(node.then_list)
            yield from _blocks_before_ifs(node.else_list)
        elif isinstance(node, Loop):
            yield from _blocks_before_ifs(node.body)


_DIM_COMPONENTS = {"1d": 1, "2d": 2, "3d": 3, "cube": 3, "rect": 2, "buf": 1, "ms": 2}


def _type_errors(instr, label, func) -> list[str]:
    errors = []
    err = errors.append
    if isinstance(instr, Alu):
        info = instr.info
        if len(instr.srcs) != info.num_inputs:
            return [f"{label}: expects {info.num_inputs} sources"]
        if info.output_size and instr.dest.num_components != info.output_size:
            err(f"{label}: destination must have {info.output_size} components")
        unsized = set()
        for i, s in enumerate(instr.srcs):
            need = instr.src_components(i)
            if len(s.swizzle) != need:
                err(f"{label}: source {i} reads {len(s.swizzle)} components, needs {need}")
            if any(c >= s.def_.num_components for c in s.swizzle):
                err(f"{label}: source {i} swizzle out of range")
            _base, size = parse_type_spec(info.input_types[i])
            if size is None:
                unsized.add(s.def_.bit_size)
            elif s.def_.bit_size != size:
                err(f"{label}: source {i} must be {size}-bit, is {s.def_.bit_size}-bit")
        if len(unsized) > 1:
            err(f"{label}: unsized sources disagree on bit size {sorted(unsized)}")
        _ob, osize = parse_type_spec(info.output_type)
        if osize is not None and instr.dest.bit_size != osize:
            err(f"{label}: destination must be {osize}-bit")
        if osize is None and unsized and instr.dest.bit_size not in unsized:
            err(f"{label}: destination bit size differs from the sources")
    elif isinstance(instr, LoadConst):
        if any(v < 0 or v >> instr.dest.bit_size for v in instr.values):
            err(f"{label}: constant does not fit {instr.dest.bit_size} bits")
        if len(instr.values) != instr.dest.num_components:
            err(f"{label}: component count mismatch")
    elif isinstance(instr, Intrinsic):
        info = instr.info
        if len(instr.srcs) != info.num_srcs:
            err(f"{label}: expects {info.num_srcs} sources")
        for i, (s, need) in enumerate(zip(instr.srcs, info.src_components)):
            if need and s.num_components != need:
                err(f"{label}: source {i} must have {need} components")
        if info.has_dest != (instr.dest is not None):
            err(f"{label}: destination presence is wrong")
        if info.dest_components and instr.dest is not None and instr.dest.num_components != info.dest_components:
            err(f"{label}: destination must have {info.dest_components} components")
        if instr.name in ("load_deref", "store_deref"):
            d = instr.srcs[0] if instr.srcs else None
            if d is None or not isinstance(d.parent, Deref):
                err(f"{label}: source 0 must be a deref")
            else:
                t = d.parent.type
                val = instr.dest if instr.name == "load_deref" else instr.srcs[1]
                if not isinstance(t, VecType):
                    err(f"{label}: deref of type {t} is not a vector")
                elif (val.num_components, val.bit_size) != (t.components, t.bit_size):
                    err(f"{label}: value is {val.bit_size}x{val.num_components}, variable is {t}")
        if instr.name == "load_param":
            p = instr.indices.get("param_idx", -1)
            if not 0 <= p < len(func.params):
                err(f"{label}: no parameter {p}")
            elif (instr.dest.num_components, instr.dest.bit_size) != func.params[p]:
                err(f"{label}: parameter size mismatch")
        if instr.name == "return_value" and func.ret and \
                (instr.srcs[0].num_components, instr.srcs[0].bit_size) != func.ret:
            err(f"{label}: return value size mismatch")
        if instr.name == "discard_if" and instr.srcs and instr.srcs[0].bit_size != 1:
            err(f"{label}: condition must be 1-bit")
    elif isinstance(instr, Tex):
        kinds = [k for k, _d in instr.srcs]
        if len(set(kinds)) != len(kinds):
            err(f"{label}: repeated texture source kind")
        if instr.op not in ("txs", "query_levels", "query_samples") and "coord" not in kinds:
            err(f"{label}: needs a coord source")
        dim_comps = _DIM_COMPONENTS[instr.dim]
        for kind, d in instr.srcs:
            need = {"coord": dim_comps + instr.is_array, "lod": 1, "bias": 1, "comparator": 1,
                    "ms_index": 1, "ddx": dim_comps, "ddy": dim_comps,
                    "offset": min(dim_comps, 3) if instr.dim != "cube" else 0}[kind]
            if kind == "coord" and instr.dim == "cube" and instr.op != "txf":
                need = 3 + instr.is_array
            if d.num_components != need:
                err(f"{label}: {kind} must have {need} components for a {instr.dim}"
                    f"{' array' if instr.is_array else ''} texture")
    elif isinstance(instr, Deref):
        if instr.kind == "array" and (instr.index.num_components != 1 or instr.index.bit_size != 32):
            err(f"{label}: array index must be a 32-bit scalar")
        if instr.kind != "var" and not isinstance(instr.parent.parent, Deref):
            err(f"{label}: parent is not a deref")
    elif isinstance(instr, Call):
        callee = instr.callee
        if len(instr.args) != len(callee.params):
            err(f"{label}: {callee.name} takes {len(callee.params)} arguments")
        for a, p in zip(instr.args, callee.params):
            if (a.num_components, a.bit_size) != p:
                err(f"{label}: argument size mismatch")
        if (instr.dest is not None) != (callee.ret is not None):
            err(f"{label}: destination presence does not match the callee")
    return errors
