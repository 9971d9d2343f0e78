"""Alpha to coverage and alpha to one act on multisampled framebuffers only (GL 4.6
section 17.3.1: "if SAMPLE_BUFFERS is one"); with one sample they are no-ops.
shimgl turned alpha 0.5 into an empty coverage mask on single-sampled buffers, so
nothing was drawn: piglit's gl-1.3-alpha_to_coverage_nop failed (third opengl
sample), with GL_MULTISAMPLE enabled and disabled alike."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E


@pytest.mark.parametrize("cap", [E.GL_SAMPLE_ALPHA_TO_COVERAGE, E.GL_SAMPLE_ALPHA_TO_ONE])
@pytest.mark.parametrize("multisample", [True, False])
def test_single_sampled_buffers_ignore_alpha_to_coverage_and_one(cap, multisample):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        g.glClearColor(1.0, 0.0, 0.0, 0.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        (g.glEnable if multisample else g.glDisable)(E.GL_MULTISAMPLE)
        g.glEnable(cap)
        g.glColor4f(0.5, 0.5, 0.5, 0.5)
        g.glRectf(-1, -1, 1, 1)
        got = np.frombuffer(g.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).tolist()
        assert got == [128, 128, 128, 128]            # drawn, alpha kept
        assert g.glGetError() == E.GL_NO_ERROR
