"""Helpers for passes that change control flow: finding a node's list, splicing a
cf list in place of an if or loop, merging adjacent blocks, repairing phis."""

from __future__ import annotations

from ..core import (
    Block, Def, Function, If, Instr, Loop, Phi, Undef, compute_cfg, replace_uses, walk_cf,
)

__all__ = [
    "find_list", "retarget_phi_preds", "merge_adjacent_blocks", "splice", "repair_phis",
    "uses_count", "remove_instr", "replace_instr",
]


def find_list(func: Function, target) -> tuple[list, int]:
    """The cf list holding ``target`` (a block, if or loop) and its index there."""
    def search(nodes):
        for i, n in enumerate(nodes):
            if n is target:
                return nodes, i
            subs = [n.then_list, n.else_list] if isinstance(n, If) else [n.body] if isinstance(n, Loop) else []
            for s in subs:
                r = search(s)
                if r:
                    return r
        return None
    found = search(func.body)
    assert found, "node not found in the function"
    return found


def retarget_phi_preds(func: Function, old: Block, new: Block) -> None:
    for node in walk_cf(func.body):
        if isinstance(node, Block):
            for phi in node.phis():
                phi.srcs = [(new if b is old else b, d) for b, d in phi.srcs]


def merge_adjacent_blocks(func: Function, nodes: list) -> None:
    """Merge every run of adjacent blocks in ``nodes`` into its first block, and drop
    whatever follows a block that ends in a jump. The second block's phis must
    have a single source (they become that value)."""
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if isinstance(node, Block) and node.jump() is not None and i + 1 < len(nodes):
            del nodes[i + 1:]
            continue
        if isinstance(node, Block) and i + 1 < len(nodes) and isinstance(nodes[i + 1], Block):
            nxt = nodes.pop(i + 1)
            mapping = {}
            for phi in nxt.phis():
                assert len({id(d) for _b, d in phi.srcs}) <= 1, "merging a block whose phi has several sources"
                mapping[phi.dest] = phi.srcs[0][1] if phi.srcs else None
            for instr in list(nxt.instrs):
                if isinstance(instr, Phi):
                    if mapping[instr.dest] is None:
                        u = Undef(instr.dest.num_components, instr.dest.bit_size)
                        node.append(u)
                        mapping[instr.dest] = u.dest
                    continue
                node.append(instr)
            replace_uses(func.body, {k: v for k, v in mapping.items() if v is not None})
            retarget_phi_preds(func, nxt, node)
            continue
        i += 1


def splice(func: Function, target, new_nodes: list) -> None:
    """Replace the if or loop ``target`` by ``new_nodes`` (a cf list) and merge the
    blocks that become adjacent; then repair phis."""
    nodes, idx = find_list(func, target)
    nodes[idx:idx + 1] = new_nodes
    merge_adjacent_blocks(func, nodes)
    repair_phis(func)


def repair_phis(func: Function) -> None:
    """Drop phi sources from blocks that are no longer predecessors; a phi left
    without sources (unreachable block) becomes an undef."""
    cfg = compute_cfg(func.body)
    mapping: dict[Def, Def] = {}
    for block in cfg.preds:
        preds = cfg.preds[block]
        for phi in block.phis():
            phi.srcs = [(b, d) for b, d in phi.srcs if b in preds]
            if not phi.srcs:
                u = Undef(phi.dest.num_components, phi.dest.bit_size)
                block.instrs[block.instrs.index(phi)] = u
                u.block = block
                mapping[phi.dest] = u.dest
    # A source whose definition was removed with dropped control flow (a dead side of
    # an if, code after a break) comes from a predecessor that can no longer run,
    # such as a loop's latch reached only from the dropped side: it becomes an undef
    # defined in that predecessor.
    live = {i.dest for b in cfg.preds for i in b.instrs if i.dest is not None}
    for block in cfg.preds:
        for phi in block.phis():
            for k, (pred, d) in enumerate(phi.srcs):
                d = mapping.get(d, d)
                if d not in live:
                    u = Undef(d.num_components, d.bit_size)
                    j = pred.jump()
                    pred.insert(len(pred.instrs) - (j is not None), u)
                    live.add(u.dest)
                    d = u.dest
                phi.srcs[k] = (pred, d)
    # Undefs must follow the phis.
    for block in cfg.preds:
        phis = [i for i in block.instrs if isinstance(i, Phi)]
        rest = [i for i in block.instrs if not isinstance(i, Phi)]
        block.instrs = phis + rest
    replace_uses(func.body, mapping)


def uses_count(func: Function) -> dict[Def, int]:
    counts: dict[Def, int] = {}
    for node in walk_cf(func.body):
        if isinstance(node, Block):
            for instr in node.instrs:
                for d in instr.sources():
                    counts[d] = counts.get(d, 0) + 1
        elif isinstance(node, If):
            counts[node.cond] = counts.get(node.cond, 0) + 1
    return counts


def remove_instr(instr: Instr) -> None:
    instr.block.remove(instr)


def replace_instr(old: Instr, new: Instr) -> None:
    """Put ``new`` where ``old`` was (uses of old's value are not rewritten)."""
    block = old.block
    idx = block.instrs.index(old)
    block.instrs[idx] = new
    new.block = block
    old.block = None
