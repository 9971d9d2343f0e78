"""The pipeline's own tests compare its internal paths (grouped and draw-by-draw
set-up, segments, spies on the units): a command that repeats an earlier one's
vertex inputs would take that command's vertex half (``repeat.py``) and skip the
path under test. They run with it off; ``test_repeat.py`` turns it on."""

import pytest

import drmshim.gpu.pipeline.repeat as repeat


@pytest.fixture(autouse=True)
def _no_repeated_vertex_halves(monkeypatch):
    monkeypatch.setattr(repeat, "COMMANDS", 0)
