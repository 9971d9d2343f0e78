"""SSA register allocation with spilling, then the lowering of phis and the
parallel-copy pseudo-instructions to moves.

1. Liveness on the structured CFG (phi sources live out of their predecessor;
   if conditions are read at the end of their block).
2. Pressure: wherever more 16-bit halves are live than the budget holds, the
   live value whose next use is furthest away (Belady) is spilled everywhere
   (``spill.py``), and liveness is recomputed.
3. Colouring in program order, which for structured code is a dominance order:
   at a block's entry exactly its live-in values hold registers; each
   instruction frees the values it reads for the last time, then places its
   results first-fit at their alignment (a phi's result prefers its sources'
   register and a loop-carried value the phi's, and a ``collect`` source the
   halves it takes in the vector, lined up with a sibling already placed, so most
   copies vanish). Vectors
   take consecutive halves. Alignment can fragment the file: when a value finds
   no room, the value live there with the furthest next use is spilled and the
   colouring restarts.
4. Phis become parallel copies at the end of each predecessor; ``collect``,
   ``copy`` and ``preload`` are parallel copies too. They are sequentialised per
   16-bit half (cycles broken through r1l) and adjacent halves merged into
   32-bit moves.

Registers are counted in halves as in Mesa: r0 (r0l, the nesting counter) and r1
(the backend's temporary) are reserved, so a budget of N 32-bit registers gives
r2..r(N-1).
"""

from __future__ import annotations

import bisect

from uapi.isa import Imm, Reg

from .abi import RESERVED_REGS32, TEMP_REG, BackendError
from .mir import Const, MFunction, MInstr, Ref, VReg, linear_blocks, mcfg, phi_source_vregs, walk_mblocks
from .spill import lower_memory_phis, spill_value

__all__ = ["allocate", "Allocation"]


class Allocation:
    def __init__(self, reg: dict, max_half: int):
        self.reg = reg              # VReg -> first half
        self.max_half = max_half    # highest half used + 1


def _term_uses(cfg, b) -> list:
    node = cfg.if_cond_block.get(b)
    if node is None:
        return []
    return [x.vreg for x in node.cond[2:] if isinstance(x, Ref)]


def liveness(func: MFunction):
    cfg = mcfg(func)
    blocks = linear_blocks(func)
    use, defs = {}, {}
    for b in blocks:
        u, d = set(), set()
        for p in b.phis:
            d.add(p.dst)
        for ins in b.instrs:
            for v in ins.uses():
                if v not in d:
                    u.add(v)
            d.update(ins.defs())
        for v in _term_uses(cfg, b):
            if v not in d:
                u.add(v)
        use[b], defs[b] = u, d
    phi_out = {b: phi_source_vregs(func, b, cfg.succs[b]) for b in blocks}
    live_in = {b: set() for b in blocks}
    live_out = {b: set() for b in blocks}
    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            out = set(phi_out[b])
            for s in cfg.succs[b]:
                out |= live_in[s]
            inn = use[b] | (out - defs[b])
            if out != live_out[b] or inn != live_in[b]:
                live_out[b], live_in[b] = out, inn
                changed = True
    return cfg, blocks, live_in, live_out


def _block_points(cfg, b, live_out):
    """For each instruction index k of ``b``: the values live just after it."""
    live = set(live_out) | set(_term_uses(cfg, b))
    after = [None] * len(b.instrs)
    for k in range(len(b.instrs) - 1, -1, -1):
        after[k] = set(live)
        ins = b.instrs[k]
        live -= set(ins.defs())
        live |= set(ins.uses())
    return after


def _positions(func, blocks, cfg):
    """Linear position of every instruction and the use positions of every vreg."""
    pos, uses = {}, {}
    n = 0
    for b in blocks:
        n += 1
        for ins in b.instrs:
            pos[id(ins)] = n
            for v in ins.uses():
                uses.setdefault(v, []).append(n)
            n += 1
        for v in _term_uses(cfg, b):
            uses.setdefault(v, []).append(n)
        for v in phi_source_vregs(func, b, cfg.succs[b]):
            uses.setdefault(v, []).append(n)
        n += 1
    for v in uses:
        uses[v].sort()
    return pos, uses


def _next_use(uses, v, p) -> int:
    lst = uses.get(v, [])
    i = bisect.bisect_right(lst, p)
    return lst[i] - p if i < len(lst) else 1 << 30


def _victim(candidates, uses, p):
    best = None
    for v in candidates:
        if not v.spillable:
            continue
        key = (_next_use(uses, v, p), v.halves, -v.id)
        if best is None or key > best[0]:
            best = (key, v)
    return None if best is None else best[1]


def _collect_offsets(ins):
    """A ``collect``'s sources with the half each starts at in the vector."""
    at = 0
    for x in ins.srcs:
        yield x, at
        at += x.size // 16 if isinstance(x, (Ref, Const)) else 1


def _busy(ins) -> set:
    """Values an instruction needs whole in registers: its results and the
    operands it reads entirely (a vector read one component at a time can be
    spilled: each use reloads just that component)."""
    busy = set(ins.defs())
    for x in ins.use_operands():
        if isinstance(x, VReg):
            busy.add(x)
        elif isinstance(x, Ref) and (x.vreg.count == 1 or x.size // 16 >= x.vreg.halves):
            busy.add(x.vreg)
    return busy


def _phi_victim(cfg, b, live):
    """A successor phi whose source here is a reload (spilling the phi lets the
    source stay in memory)."""
    for s in cfg.succs[b]:
        for p in s.phis:
            x = p.srcs.get(b)
            if isinstance(x, Ref) and x.vreg in live and not x.vreg.spillable:
                return p.dst
    return None


def _block_pressure(cfg, b, live_out) -> list[int]:
    """For each instruction index k of ``b``: the halves it needs in registers, the
    larger of (values live after it | its results) and ((live after - results) |
    its operands), as ``_block_points`` would give; running sums, no set per point."""
    live = set(live_out) | set(_term_uses(cfg, b))
    cur = sum(v.halves for v in live)
    need = [0] * len(b.instrs)
    for k in range(len(b.instrs) - 1, -1, -1):
        ins = b.instrs[k]
        defs, uses = set(ins.defs()), set(ins.uses())
        with_defs = cur + sum(v.halves for v in defs if v not in live)
        for v in defs:
            if v in live:
                live.remove(v)
                cur -= v.halves
        for v in uses:
            if v not in live:
                live.add(v)
                cur += v.halves
        need[k] = max(with_defs, cur)
    return need


def _live_after(cfg, b, live_out, k: int) -> set:
    """The values live just after instruction ``k`` of ``b`` (``_block_points(...)[k]``)."""
    live = set(live_out) | set(_term_uses(cfg, b))
    for j in range(len(b.instrs) - 1, k, -1):
        ins = b.instrs[j]
        live -= set(ins.defs())
        live |= set(ins.uses())
    return live


def _next_uses(func, blocks, cfg, p: int, candidates) -> dict:
    """Distance from linear position ``p`` to the next use of each candidate (positions
    as ``_positions`` numbers them; 1 << 30 when there is none): the same answers as
    ``_next_use`` over ``_positions``' lists, found by scanning forward from ``p`` only
    as far as the furthest candidate's next use."""
    remaining = set(candidates)
    dist = {v: 1 << 30 for v in remaining}
    n = 0
    for b in blocks:
        end = n + 1 + len(b.instrs)            # the block's end: terminator and phi-source uses
        if end > p and remaining:
            first = max(0, p - n)                # instruction index k sits at n + 1 + k
            for k in range(first, len(b.instrs)):
                q = n + 1 + k
                for v in b.instrs[k].uses():
                    if v in remaining:
                        dist[v] = q - p
                        remaining.discard(v)
            for v in list(_term_uses(cfg, b)) + list(phi_source_vregs(func, b, cfg.succs[b])):
                if v in remaining:
                    dist[v] = end - p
                    remaining.discard(v)
        if not remaining:
            break
        n = end + 1
    return dist


def _victim_near(func, blocks, cfg, candidates, p):
    """``_victim(candidates, uses, p)`` with the next uses found by ``_next_uses``."""
    spillable = [v for v in candidates if v.spillable]
    if not spillable:
        return None
    dist = _next_uses(func, blocks, cfg, p, spillable)
    return max(spillable, key=lambda v: (dist[v], v.halves, -v.id))


#: instructions between two live-set snapshots of a block in ``_BlockMarks``
MARK_EVERY_INSTRS = 256


class _BlockMarks:
    """The pressure of one block across spill rounds without a backward scan of the
    whole block per round. A mark is the set of values live just after an
    instruction (and their halves), taken for every ``MARK_EVERY_INSTRS``-th
    instruction by one backward scan; ``spilled`` keeps the marks exact: spilling
    ``v`` everywhere removes it from every live set but the one just after its
    definition (the store reads it there; reloads live only between themselves and
    their reader, which no mark separates), and a rematerialised definition goes
    with its mark. ``first_over`` and ``live_after`` then scan backward only from
    the nearest mark after the point they need (the same sets and sums as
    ``_block_pressure``/``_live_after`` give). A mark also keeps where its
    instruction was: spilling only inserts instructions, except a rematerialised
    definition it removes (``removed`` counts them), so the instruction is found
    again by a short search from there."""

    def __init__(self, cfg, b, live_out):
        self.cfg, self.b = cfg, b
        self.removed = 0
        live = set(live_out) | set(_term_uses(cfg, b))
        cur = sum(v.halves for v in live)
        marks = []
        last = len(b.instrs) - 1
        for k in range(last, -1, -1):
            if k % MARK_EVERY_INSTRS == MARK_EVERY_INSTRS - 1 and k != last:
                marks.append([b.instrs[k], set(live), cur, k, 0])
            ins = b.instrs[k]
            for v in ins.defs():
                if v in live:
                    live.remove(v)
                    cur -= v.halves
            for v in ins.uses():
                if v not in live:
                    live.add(v)
                    cur += v.halves
        marks.reverse()
        self.marks = marks

    def find(self, ins, k: int, removed_at: int) -> int | None:
        """The index of ``ins``, at ``k`` when ``removed_at`` removals had happened; None if gone."""
        try:
            return self.b.instrs.index(ins, max(0, k - (self.removed - removed_at)))
        except ValueError:
            return None

    def spilled(self, v, rematerialised: bool) -> None:
        self.removed += rematerialised
        for m in self.marks:
            if v in m[1] and v not in m[0].defs():
                m[1].discard(v)
                m[2] -= v.halves

    def _chunks(self, live_out):
        """(first index, last index, live set after the last, its halves) of each chunk, in order."""
        chunks, lo, kept = [], 0, []
        for m in self.marks:
            k = self.find(m[0], m[3], m[4])
            if k is None:
                continue
            m[3], m[4] = k, self.removed
            kept.append(m)
            chunks.append((lo, k, m[1], m[2]))
            lo = k + 1
        self.marks = kept
        end = set(live_out) | set(_term_uses(self.cfg, self.b))
        chunks.append((lo, len(self.b.instrs) - 1, end, sum(v.halves for v in end)))
        return chunks

    def first_over(self, live_out, start: int, budget_halves: int):
        """The first instruction index >= ``start`` whose need (``_block_pressure``)
        exceeds the budget, with the values live just after it; or (None, None)."""
        instrs = self.b.instrs
        for lo, hi, live_hi, cur in self._chunks(live_out):
            if hi < start:
                continue
            live, found = set(live_hi), None
            for k in range(hi, max(lo, start) - 1, -1):
                ins = instrs[k]
                defs, uses = ins.defs(), ins.uses()
                with_defs = cur + sum(v.halves for v in set(defs) if v not in live)
                for v in defs:
                    if v in live:
                        live.remove(v)
                        cur -= v.halves
                for v in uses:
                    if v not in live:
                        live.add(v)
                        cur += v.halves
                if max(with_defs, cur) > budget_halves:
                    found = k
            if found is not None:
                live = set(live_hi)
                for j in range(hi, found, -1):
                    ins = instrs[j]
                    live -= set(ins.defs())
                    live |= set(ins.uses())
                return found, live
        return None, None


def _users(func: MFunction) -> dict:
    """vreg -> {block: the instructions of the block reading it, in order}. Spilling
    keeps it true for every value not yet spilled: it only redirects the spilled
    value's reads and adds instructions reading new values (reloads) or it (store)."""
    users: dict = {}
    for b in walk_mblocks(func.body):
        for ins in b.instrs:
            for v in set(ins.uses()):
                users.setdefault(v, {}).setdefault(b, []).append(ins)
    return users


def _reduce_pressure(func: MFunction, budget_halves: int, max_rounds: int) -> None:
    """Spill (Belady: the furthest next use) at the first point of the program where
    more halves are live than the budget, then look again, until no point is over.

    Spilling a value everywhere never raises the pressure anywhere (its reloads
    replace it just before each reader), so each round's first point over the budget
    is at or after the previous round's: a round resumes there, liveness is updated
    (the spilled value leaves every live set; reloads feeding successor phis join
    their block's live-out set) rather than recomputed, and the block's pressure
    comes from ``_BlockMarks``. Spilling a phi changes the flow of values, so then
    liveness is recomputed and the search starts again from the top, as at first."""
    state = None
    for _round in range(max_rounds):
        if state is None:
            state = liveness(func)
            users = _users(func)
            bi, resume, marks = 0, None, None    # resume: the instruction after which to look (None: the block's entry)
        cfg, blocks, live_in, live_out = state
        victim = None
        while bi < len(blocks):
            b = blocks[bi]
            n = sum(len(x.instrs) + 2 for x in blocks[:bi])   # linear position base of the block (see _positions)
            start = 0
            if resume is not None:
                at = marks.find(*resume) if marks is not None and marks.b is b else None
                if at is None:                  # it was a rematerialised definition: look from the entry again
                    resume = None
                else:
                    start = at + 1
            if resume is None:
                entry = set(live_in[b]) | {p.dst for p in b.phis}
                if sum(v.halves for v in entry) > budget_halves:
                    p = n if b.instrs else 0        # just before its first instruction
                    victim = _victim_near(func, blocks, cfg, entry - {p_.dst for p_ in b.phis}, p) or \
                        _victim_near(func, blocks, cfg, entry, p)
                    break
            if marks is None or marks.b is not b:
                marks = _BlockMarks(cfg, b, live_out[b])
            k, live = marks.first_over(live_out[b], start, budget_halves)
            if k is not None:
                ins = b.instrs[k]
                live |= set(ins.defs())
                busy = _busy(ins)
                victim = _victim_near(func, blocks, cfg, live - busy, n + 1 + k) or _phi_victim(cfg, b, live)
                if victim is None:
                    raise BackendError(f"register budget of {budget_halves} halves is too small for `{ins}` "
                                       f"(live: {sorted(live, key=lambda v: v.id)}; block: {b.instrs})")
                resume = (b.instrs[k - 1], k - 1, marks.removed) if k > 0 else None
                break
            bi, resume = bi + 1, None
        if victim is None:
            return
        is_phi = any(p.dst is victim for x in blocks for p in x.phis)
        spill_value(func, victim, users.get(victim, {}))
        if is_phi:
            state = None
            continue
        for x in blocks:
            live_in[x].discard(victim)
            live_out[x].discard(victim)
            live_out[x] |= phi_source_vregs(func, x, cfg.succs[x])
        if marks is not None and marks.b is blocks[bi]:
            marks.spilled(victim, func.spilled[victim][0] == "remat")
    raise BackendError("spilling did not converge")


_ALIGNED: dict = {}


def _aligned_mask(a: int, start: int, last: int) -> int:
    """Bits start, start + a, ... up to ``last`` (start a multiple of ``a``)."""
    key = (a, start, last)
    m = _ALIGNED.get(key)
    if m is None:
        m = _ALIGNED[key] = sum(1 << h for h in range(start, last + 1, a))
    return m


class _File:
    """Occupancy of the register halves during colouring."""

    def __init__(self, lo: int, hi: int):
        self.lo, self.hi = lo, hi
        self.owner = [None] * hi
        self.busy = 0               # bit h set: half h has an owner (first fit by bit operations)

    def free_at(self, h: int, n: int) -> bool:
        # owners are VRegs (always true) or None: ``any`` over the slice runs in C
        return h >= self.lo and h + n <= self.hi and not (self.busy >> h) & ((1 << n) - 1)

    def place(self, v: VReg, h: int) -> None:
        for i in range(v.halves):
            assert self.owner[h + i] is None, f"{v} placed on occupied half {h + i}"
            self.owner[h + i] = v
        self.busy |= ((1 << v.halves) - 1) << h

    def release(self, v: VReg, h: int) -> None:
        for i in range(v.halves):
            if self.owner[h + i] is v:
                self.owner[h + i] = None
                self.busy &= ~(1 << (h + i))

    def find(self, v: VReg, hint: int | None) -> int | None:
        n, a = v.halves, v.align
        if hint is not None and hint % a == 0 and self.free_at(hint, n):
            return hint
        start = (self.lo + a - 1) // a * a
        last = self.hi - n                      # the highest first half that fits
        if last < start:
            return None
        free = ~self.busy
        run = free
        for i in range(1, n):                   # bit h: halves h .. h + n - 1 all free
            run &= free >> i
        run &= _aligned_mask(a, start, last)
        return (run & -run).bit_length() - 1 if run else None


def _colour(func: MFunction, budget_halves: int):
    """Returns (reg map, None) or (None, vreg to spill)."""
    cfg, blocks, live_in, live_out = liveness(func)

    def positions():            # numbered only when a value must be spilled
        return _positions(func, blocks, cfg)
    lo, hi = 2 * RESERVED_REGS32, 2 * RESERVED_REGS32 + budget_halves
    reg: dict[VReg, int] = {}
    hint_of: dict[VReg, VReg] = {}
    for b in blocks:
        for p in b.phis:
            for x in p.srcs.values():
                if isinstance(x, Ref) and x.off == 0 and x.vreg.halves == p.dst.halves:
                    hint_of.setdefault(x.vreg, p.dst)
                    hint_of.setdefault(p.dst, x.vreg)

    # A collect's scalar sources prefer the halves they take in the vector, lined up
    # with a sibling already placed (so the collect's copies vanish: coalescing).
    in_collect: dict[VReg, tuple] = {}
    for b in blocks:
        for ins in b.instrs:
            if ins.op == "collect":
                for x, at in _collect_offsets(ins):
                    if isinstance(x, Ref) and x.off == 0 and x.size == x.vreg.size and x.vreg.count == 1:
                        in_collect.setdefault(x.vreg, (ins, at))

    def collect_hint(v):
        ins, at = in_collect[v]
        vec = ins.dsts[0]
        for x, pos in _collect_offsets(ins):
            if isinstance(x, Ref) and x.vreg in reg and x.vreg is not v:
                start = reg[x.vreg] + x.off - pos
                if start >= 0 and start % vec.align == 0:
                    return start + at
        return None

    def hint(v):
        h = hint_of.get(v)
        if h is None and v in in_collect:
            return collect_hint(v)
        return reg.get(h) if h is not None else None

    for b in blocks:
        f = _File(lo, hi)
        for v in live_in[b]:
            assert v in reg, f"{v} live into a block before its definition"
            f.place(v, reg[v])
        after = _block_points(cfg, b, live_out[b])
        first_live = after[0] if b.instrs else (set(live_out[b]) | set(_term_uses(cfg, b)))
        for p in b.phis:
            h = f.find(p.dst, hint(p.dst))
            if h is None:
                pos, uses = positions()
                p0 = pos[id(b.instrs[0])] - 1 if b.instrs else 0
                return None, _victim(set(live_in[b]), uses, p0) or p.dst
            reg[p.dst] = h
            f.place(p.dst, h)
        for p in b.phis:
            if p.dst not in first_live and not (b.instrs and p.dst in b.instrs[0].uses()):
                f.release(p.dst, reg[p.dst])
        for k, ins in enumerate(b.instrs):
            live = after[k]
            for v in set(ins.uses()):
                if v not in live:
                    f.release(v, reg[v])
            for v in ins.defs():
                h = None
                if ins.op == "collect":      # line the vector up with a source already in place
                    for x, at in _collect_offsets(ins):
                        if isinstance(x, Ref) and h is None:
                            start = reg[x.vreg] + x.off - at
                            if start >= 0 and start % v.align == 0 and f.free_at(start, v.halves):
                                h = start
                h = h if h is not None else f.find(v, hint(v))
                if h is None:
                    pos, uses = positions()
                    p = pos[id(ins)]
                    busy = _busy(ins)
                    placed = {o for o in f.owner if o is not None} - busy
                    return None, _victim(placed, uses, p) or _victim(live - busy, uses, p)
                reg[v] = h
                f.place(v, h)
            for v in ins.defs():
                if v not in live:
                    f.release(v, reg[v])
    return reg, None


def allocate(func: MFunction, max_regs32: int = 128, max_rounds: int = 400) -> Allocation:
    """Allocate registers in place: spills as needed, then colours. ``max_regs32``:
    the register budget (r0 and r1 included)."""
    budget = 2 * (max_regs32 - RESERVED_REGS32)
    if budget < 4:
        raise BackendError(f"a budget of {max_regs32} registers leaves nothing to allocate")
    _reduce_pressure(func, budget, max_rounds)
    for _attempt in range(max_rounds):
        reg, victim = _colour(func, budget)
        if reg is not None:
            top = max([2 * RESERVED_REGS32] + [h + v.halves for v, h in reg.items()])
            return Allocation(reg, top)
        if victim is None:
            raise BackendError("register allocation failed with nothing left to spill")
        spill_value(func, victim)
        _reduce_pressure(func, budget, max_rounds)
    raise BackendError("register colouring did not converge")


# ---------------------------------------------------------------------------
# Parallel copies

def _halves_of_source(x, reg) -> list:
    """Per-half sources of a copy operand: ('r', half) / ('u', half) / ('imm', value)."""
    if isinstance(x, Ref):
        h = reg[x.vreg] + x.off
        return [("r", h + i) for i in range(x.size // 16)]
    if isinstance(x, VReg):
        h = reg[x]
        return [("r", h + i) for i in range(x.halves)]
    if isinstance(x, Const):
        return [("imm", (x.bits >> (16 * i)) & 0xFFFF) for i in range(x.size // 16)]
    if isinstance(x, Reg):
        return [(x.file, x.half + i) for i in range(x.size // 16 * x.count)]
    if isinstance(x, Imm):
        return [("imm", x.code)]
    raise TypeError(f"cannot copy from {x!r}")


def sequentialise(moves: list[tuple[int, tuple]]) -> list[MInstr]:
    """Half-granular parallel copy ``[(dst half, src)]`` -> physical moves.
    Aligned pairs of halves move as 32-bit units; cycles go through r1 (r1l for
    a 16-bit unit)."""
    by_dst = {d: s for d, s in moves if s != ("r", d)}
    units = []          # (dst half, halves, src) with src (file, first half) or ("imm", bits)
    for d in sorted(by_dst):
        s = by_dst.get(d)
        if s is None:
            continue
        s2 = by_dst.get(d + 1)
        if d % 2 == 0 and s2 is not None and s[0] == s2[0] and (
                (s[0] == "imm") or (s[1] % 2 == 0 and s2[1] == s[1] + 1)):
            value = (s[0], s[1] | (s2[1] << 16)) if s[0] == "imm" else s
            units.append((d, 2, value))
            del by_dst[d + 1]
        else:
            units.append((d, 1, s))
        del by_dst[d]
    temp = 2 * TEMP_REG
    pending = list(units)
    out: list[tuple[int, int, tuple]] = []

    def reads(u, lo, n):
        _d, size, src = u
        return src[0] == "r" and src[1] < lo + n and lo < src[1] + size

    while pending:
        progress = True
        while progress:
            progress = False
            for u in list(pending):
                if not any(reads(o, u[0], u[1]) for o in pending if o is not u):
                    out.append(u)
                    pending.remove(u)
                    progress = True
        if pending:       # only cycles remain: park one unit's destination in r1
            d, n, _s = pending[0]
            straddle = any(ps[0] == "r" and ps[1] < d + n and d < ps[1] + pn and not d <= ps[1] < d + n
                           or ps[0] == "r" and d <= ps[1] < d + n and ps[1] + pn > d + n
                           for _pd, pn, ps in pending)
            temp_busy = any(ps[0] == "r" and temp <= ps[1] < temp + 2 for _pd, _pn, ps in pending)
            if (straddle or temp_busy) and any(pn > 1 for _pd, pn, _ps in pending):
                # a source covers the parked range only in part, or r1 still holds a parked
                # value (32-bit units joined two cycles): go half by half, where cycles are
                # disjoint and each is unrolled before the next needs r1
                pending = [(pd + k, 1, (ps[0], ps[1] + k) if ps[0] != "imm" else ("imm", ps[1] >> (16 * k) & 0xFFFF))
                           for pd, pn, ps in pending for k in range(pn)]
                continue
            assert not temp_busy, "parallel copy: r1 parked twice"
            out.append((temp, n, ("r", d)))
            pending = [(pd, pn, ("r", temp + ps[1] - d) if ps[0] == "r" and d <= ps[1] < d + n else ps)
                       for pd, pn, ps in pending]
    instrs = []
    for d, n, src in out:
        size = 16 * n
        if src[0] == "imm":
            instrs.append(MInstr("mov_imm", {"dst": Reg("r", d, size), "imm": src[1]}))
        else:
            instrs.append(MInstr("mov", {"dst": Reg("r", d, size), "a": Reg(src[0], src[1], size)}))
    return instrs


def lower_copies(func: MFunction, alloc: Allocation) -> None:
    """Phis -> copies at the end of predecessors; pseudos -> moves."""
    reg = alloc.reg
    cfg = mcfg(func)
    for b in linear_blocks(func):
        for pred in cfg.preds[b]:
            if b.mem_phis:
                pred.instrs.extend(lower_memory_phis(func, reg, pred, b.mem_phis))
            moves = []
            for p in b.phis:
                x = p.srcs[pred]
                for i, s in enumerate(_halves_of_source(x, reg)):
                    moves.append((reg[p.dst] + i, s))
            pred.instrs.extend(sequentialise(moves))
        b.phis = []
        b.mem_phis = []
    for b in linear_blocks(func):
        new = []
        for ins in b.instrs:
            if not ins.pseudo:
                new.append(ins)
                continue
            moves = []
            if ins.op == "collect":
                (dst,) = ins.dsts
                h = reg[dst]
                for x in ins.srcs:
                    for s in _halves_of_source(x, reg):
                        moves.append((h, s))
                        h += 1
            else:
                for dst, x in zip(ins.dsts, ins.srcs):
                    for i, s in enumerate(_halves_of_source(x, reg)):
                        moves.append((reg[dst] + i, s))
            new.extend(sequentialise(moves))
        b.instrs = new


_ = MInstr
