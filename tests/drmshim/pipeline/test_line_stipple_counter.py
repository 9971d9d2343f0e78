"""The PPP's line stipple counters (``CoefficientSource.LINE_STIPPLE``): per line,
its first vertex, major axis, direction and the counter there -- the rounded
major-axis lengths of the earlier segments of its strip, by hand."""

import numpy as np

from drmshim.gpu.pipeline.ppp import _stipple_counters


def test_strip_counters_add_rounded_lengths_and_restart_where_the_strip_breaks():
    # window positions (x, y, z, 1/w) of 5 vertices: a strip 0-1-2, then a restart, then 3-4
    win = np.array([[10.0, 5.0, 0, 1], [20.4, 7.0, 0, 1], [18.0, 30.6, 0, 1],
                    [40.0, 40.0, 0, 1], [30.0, 41.0, 0, 1]])
    prims = np.array([[0, 1], [1, 2], [3, 4]])
    a, axis, sign, start = _stipple_counters(win, prims, independent=False)
    assert a.tolist() == [[10.0, 5.0], [20.4, 7.0], [40.0, 40.0]]
    assert axis.tolist() == [0, 1, 0]                     # x-major, y-major, x-major
    assert sign.tolist() == [1.0, 1.0, -1.0]              # the third runs towards -x
    # segment 1 starts after rint(10.4) = 10; the restart gives the third 0 again
    assert start.tolist() == [0.0, 10.0, 0.0]
    _, _, _, start = _stipple_counters(win, prims, independent=True)
    assert start.tolist() == [0.0, 0.0, 0.0]
