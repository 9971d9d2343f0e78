"""The control flow of a decoded program, shared by both execution tiers (the
numpy interpreter in ``core`` and the native tier, ``drmshim.gpu.native``):
the kinds of run-loop steps, the grouping of steps into blocks, and the block
walk (jumps, waits, the end and the step limit). A module of its own so that the
native tier, which ``core`` calls, does not import ``core`` back."""

from __future__ import annotations

__all__ = ["ShaderError", "StepLimit", "MASKED", "ALWAYS", "JMP_ANY", "JMP_NONE", "STOP", "WAIT", "walk_blocks"]


class ShaderError(RuntimeError):
    """A program that cannot run: undecodable, unterminated, or malformed."""


class StepLimit(ShaderError):
    """A program that did not finish within the core's step limit: it is hung, and
    the pipeline reports it as the watchdog's GPU timeout (a program that never
    ends on the hardware runs until the firmware stops it), whichever comes first:
    the step count, exact on both tiers, or the command's CPU-time budget."""

    def __init__(self, va: int, limit: int, where: str = ""):
        super().__init__(f"program at 0x{va:x} did not finish within {limit} instructions{where}")


# Step kinds of the run loop
MASKED, ALWAYS, JMP_ANY, JMP_NONE, STOP, WAIT = range(6)


def _blocks(steps: list) -> list:
    """Group maximal runs of masked steps that no branch enters in the middle."""
    n = len(steps)
    leaders = {0}
    for i, (kind, _, target) in enumerate(steps):
        if kind != MASKED:
            leaders |= {i, i + 1}
        if kind in (JMP_ANY, JMP_NONE):
            leaders.add(target)
    starts = sorted(x for x in leaders if x < n)
    index_of = {s: k for k, s in enumerate(starts)}
    blocks = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else n
        kind, fn, target = steps[start]
        nxt = k + 1
        if kind == MASKED:
            blocks.append((MASKED, tuple(steps[j][1] for j in range(start, end)), 0, nxt, end - start))
        else:
            blocks.append((kind, fn, index_of.get(target, 0) if kind in (JMP_ANY, JMP_NONE) else 0, nxt, 1))
    return blocks


def walk_blocks(blocks: list, b, max_steps: int, va: int, masked, always, start: int = 0, count: int = 0,
                poll=None, poll_every: int = 0) -> int:
    """The block loop of both execution tiers: control flow over ``Program.blocks``.

    ``masked(payload, b)`` runs a straight run of masked steps (called only when a
    lane is active), ``always(payload, b)`` a step that runs whatever the execution
    mask (control flow: it updates ``b.any_active``/``b.all_active``). Jumps, waits,
    the end and the step limit (``max_steps`` instructions per batch, then a
    ``ShaderError`` naming the program's address ``va``) are the same for both tiers.

    The walk starts at block ``start`` with ``count`` instructions already run (a
    batch one tier began and the other goes on with: both tiers have the same
    blocks). With ``poll``, ``poll(i, count)`` is called every ``poll_every``
    instructions at a block boundary (``i`` the next block): when it returns True it
    has run the rest of the batch itself and the walk ends. Returns the instructions
    run (the count a finished walk reached).
    """
    i = start
    next_poll = count + poll_every if poll is not None else max_steps + 1
    check_at = min(max_steps + 1, next_poll)
    while True:
        kind, payload, target, nxt, size = blocks[i]
        if kind == MASKED:
            if b.any_active:
                masked(payload, b)
            i = nxt
        elif kind == ALWAYS:
            always(payload, b)
            i = nxt
        elif kind == JMP_ANY:
            i = target if b.any_active else nxt
        elif kind == JMP_NONE:
            i = target if not b.any_active else nxt
        elif kind == WAIT:
            i = nxt
        else:  # STOP
            return count
        count += size
        if count >= check_at:
            if count > max_steps:
                raise StepLimit(va, max_steps)
            if poll(i, count):
                return -1
            next_poll = count + poll_every
            check_at = min(max_steps + 1, next_poll)
