"""ComputeGrid: the lazily evaluated compute special registers equal the
clarity-first per-lane numbering (lanes threadgroup by threadgroup, x fastest),
for any batch slice and for the slices of a grid that the CDM runs separately."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from drmshim.gpu.usc import ExecContext
from drmshim.gpu.usc.context import COMPUTE_SPECIALS


def reference(grid, tg, offset=(0, 0, 0), total=None):
    """Per-lane values with plain loops over groups and threads."""
    total = total or grid
    rows = {name: [] for name in COMPUTE_SPECIALS}
    for gz, gy, gx in itertools.product(*(range(n) for n in grid[::-1])):
        g = (gx + offset[0], gy + offset[1], gz + offset[2])
        for tz, ty, tx in itertools.product(*(range(n) for n in tg[::-1])):
            t = (tx, ty, tz)
            for i, a in enumerate("xyz"):
                rows[f"threadgroup_position_in_grid.{a}"].append(g[i])
                rows[f"thread_position_in_threadgroup.{a}"].append(t[i])
                rows[f"thread_position_in_grid.{a}"].append(g[i] * tg[i] + t[i])
                rows[f"threads_per_threadgroup.{a}"].append(tg[i])
                rows[f"threadgroups_per_grid.{a}"].append(total[i])
            rows["thread_index_in_threadgroup"].append(tx + tg[0] * (ty + tg[1] * tz))
    return {k: np.array(v, np.uint32) for k, v in rows.items()}


@pytest.mark.parametrize("grid, tg", [((3, 1, 1), (64, 1, 1)), ((2, 3, 2), (4, 2, 3)), ((5, 2, 1), (1, 1, 1)),
                                      ((1, 1, 4), (3, 5, 1))])
def test_specials_match_the_per_lane_numbering(grid, tg):
    ctx = ExecContext.for_compute(grid, tg)
    ref = reference(grid, tg)
    per = tg[0] * tg[1] * tg[2]
    assert ctx.lanes == len(ref["thread_index_in_threadgroup"]) and ctx.threadgroup_lanes == per
    for start, stop in [(0, ctx.lanes), (per, ctx.lanes), (0, per)]:
        for name in COMPUTE_SPECIALS:
            got = ctx.special(name, slice(start, stop))
            assert got.dtype == np.uint32 and got.shape == (stop - start,)
            np.testing.assert_array_equal(got, ref[name][start:stop], err_msg=name)


def test_a_slice_of_the_grid_numbers_its_groups_from_its_offset():
    tg, total = (2, 2, 1), (3, 4, 2)
    ctx = ExecContext.for_compute((3, 2, 1), tg, group_offset=(0, 2, 1), grid_total=total)
    ref = reference((3, 2, 1), tg, offset=(0, 2, 1), total=total)
    for name in COMPUTE_SPECIALS:
        np.testing.assert_array_equal(ctx.special(name, slice(0, ctx.lanes)), ref[name], err_msg=name)


def test_explicit_specials_override_the_grid():
    ctx = ExecContext.for_compute((2, 1, 1), (4, 1, 1), specials={"thread_index_in_threadgroup": 7})
    assert ctx.special("thread_index_in_threadgroup", slice(0, 8)).tolist() == [7] * 8


def test_a_row_of_1d_groups_from_an_x_offset():
    """thread_position_in_grid.x of a run of 1D groups starting at group 5 of 10 (the
    CDM's slices of a wide grid), over batch slices starting inside a group."""
    tg, total = (64, 1, 1), (10, 1, 1)
    ctx = ExecContext.for_compute((3, 1, 1), tg, group_offset=(5, 0, 0), grid_total=total)
    ref = reference((3, 1, 1), tg, offset=(5, 0, 0), total=total)
    for start, stop in [(0, 192), (37, 150), (191, 192)]:
        got = ctx.special("thread_position_in_grid.x", slice(start, stop))
        assert got.dtype == np.uint32
        np.testing.assert_array_equal(got, ref["thread_position_in_grid.x"][start:stop])
        np.testing.assert_array_equal(got, np.arange(start, stop) + 5 * 64)
