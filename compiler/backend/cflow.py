"""Control-flow lowering: structured machine IR -> a linear program over the
r0l nesting counter (uapi.isa.semantics.cf_*), as Mesa's AGX backend emits it.

- if/else: ``if_Xcmp cond, a, b, 1`` .. then .. ``else_icmp.eq 0, 0, 1`` .. else ..
  ``pop_exec 1`` (no ``else`` instruction when the else side is empty).
- loops: ``do { do { body } while (0) } while (any lane active)``:
  ``[push_exec 2]`` (only when nested, so lanes already inactive stay so) ``L:``
  body ``[while_icmp.eq 0, 0, 2]`` (only with ``continue``: re-activates lanes
  that continued) ``jmp_exec_any L`` ``pop_exec 2``.
- ``break`` inside d ifs of the innermost loop: ``mov_imm r0l, d + 2; pop_exec 0``
  (the lane sleeps until the loop's final ``pop_exec 2``); ``continue``:
  ``mov_imm r0l, d + 1; pop_exec 0`` (woken by the ``while``).
"""

from __future__ import annotations

from uapi.isa import Imm, Reg, make

from .mir import MBlock, MFunction, MIf, MLoop, walk_mblocks
from .pack import Branch, Label, operand, physical

__all__ = ["linearise"]

R0L = Reg("r", 0, 16)
_SLOTS = {"texture": 1, "stack_load": 2, "stack_store": 2}


def _with_slot(ins):
    """Scoreboard slot of an asynchronous instruction: texture 1, stack 2, others 0."""
    if "slot" in ins.values and ins.op.is_async:
        slot = _SLOTS.get(ins.op.name, _SLOTS.get(ins.op.schedule_class, 0))
        return make(ins.op.name, **{**ins.values, "slot": slot})
    return ins


def _empty(nodes) -> bool:
    return all(isinstance(n, MBlock) and not n.instrs and n.jump is None for n in nodes)


def _has_continue(body) -> bool:
    def walk(nodes):
        for n in nodes:
            if isinstance(n, MBlock):
                if n.jump == "continue":
                    return True
            elif isinstance(n, MIf):
                if walk(n.then_list) or walk(n.else_list):
                    return True
        return False
    return walk(body)


def linearise(func: MFunction, reg: dict) -> tuple[list, int]:
    """Returns (items, loop count): instructions, labels and branches, ending with ``stop``."""
    items: list = []
    loops = 0

    def cmp(prefix: str, cond: tuple, n: int):
        kind, c, a, b = cond
        return make(f"{prefix}_{kind}", cond=c, a=operand(a, reg), b=operand(b, reg), n=n)

    def emit(nodes, ifs: int, depth: int):
        nonlocal loops
        for node in nodes:
            if isinstance(node, MBlock):
                items.extend(_with_slot(physical(i, reg)) for i in node.instrs)
                if node.jump is not None:
                    levels = ifs + (2 if node.jump == "break" else 1)
                    items.append(make("mov_imm", dst=R0L, imm=levels))
                    items.append(make("pop_exec", n=0))
            elif isinstance(node, MIf):
                items.append(cmp("if", node.cond, 1))
                emit(node.then_list, ifs + 1, depth + 1)
                if not _empty(node.else_list):
                    items.append(make("else_icmp", cond="eq", a=Imm(0), b=Imm(0), n=1))
                    emit(node.else_list, ifs + 1, depth + 1)
                items.append(make("pop_exec", n=1))
            else:
                loops += 1
                if depth:
                    items.append(make("push_exec", n=2))
                head = Label()
                items.append(head)
                emit(node.body, 0, depth + 1)
                if _has_continue(node.body):
                    items.append(make("while_icmp", cond="eq", a=Imm(0), b=Imm(0), n=2))
                items.append(Branch("jmp_exec_any", head))
                items.append(make("pop_exec", n=2))

    emit(func.body, 0, 0)
    items.append(make("stop"))
    return items, loops


_ = (MLoop, walk_mblocks)
