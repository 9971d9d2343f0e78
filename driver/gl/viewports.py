"""Viewport arrays (GL 4.6 sections 13.6.1 and 14.9.2, ARB_viewport_array): MAX_VIEWPORTS
viewports, each with its rectangle, depth range, scissor box and scissor test; the
geometry stage's gl_ViewportIndex selects one per primitive (driver/gl/geometry.py).

Sole responsibility: where the per-viewport values live and how they are read and set.
Index 0 is ``GLState``'s ``viewport``, ``depth_range``, ``scissor`` fields and the
SCISSOR_TEST enable, which every draw without a geometry stage reads. The values of all
indices are in ``GLState.viewport_array``: component name -> tuple of MAX_VIEWPORTS
values, whose entry 0 always equals the index-0 field; a component missing from it has
every index equal to index 0 (glViewport, glScissor, glDepthRange and
glEnable/glDisable(SCISSOR_TEST) set every index, GL 4.6 section 13.6.1). The dict is
never changed in place (a copy of the state shares it safely).
"""

from __future__ import annotations

from driver.gl import enums as E

__all__ = ["COMPONENTS", "viewport_value", "set_viewport_value", "broadcast", "state_for_viewport"]

COMPONENTS = ("viewport", "depth_range", "scissor", "scissor_test")


def _index0(s, component: str):
    if component == "scissor_test":
        return E.GL_SCISSOR_TEST in s.enabled
    return getattr(s, component)


def viewport_value(s, component: str, index: int):
    """The value of ``component`` of viewport ``index`` (validated by the caller)."""
    values = s.viewport_array.get(component)
    return values[index] if values is not None and index else _index0(s, component)


def set_viewport_value(s, component: str, index: int, value, count: int) -> None:
    """Set one viewport's value (``count``: MAX_VIEWPORTS); index 0 also sets the field
    (or the SCISSOR_TEST enable) that draws without a geometry stage read."""
    values = list(s.viewport_array.get(component) or [_index0(s, component)] * count)
    values[index] = value
    s.viewport_array = {**s.viewport_array, component: tuple(values)}
    if index == 0:
        if component == "scissor_test":
            (s.enabled.add if value else s.enabled.discard)(E.GL_SCISSOR_TEST)
        else:
            setattr(s, component, value)


def broadcast(s, component: str) -> None:
    """The index-0 value was just set for every viewport (glViewport, glScissor, ...)."""
    if component in s.viewport_array:
        s.viewport_array = {k: v for k, v in s.viewport_array.items() if k != component}


def state_for_viewport(s, index: int):
    """A copy of the state whose index-0 fields are viewport ``index``'s (what the
    rasterisation pass of that viewport's primitives is set up from)."""
    if index == 0 or not s.viewport_array:
        return s
    enabled = set(s.enabled)
    (enabled.add if viewport_value(s, "scissor_test", index) else enabled.discard)(E.GL_SCISSOR_TEST)
    out = s.copy()
    out.viewport = viewport_value(s, "viewport", index)
    out.depth_range = viewport_value(s, "depth_range", index)
    out.scissor = viewport_value(s, "scissor", index)
    out.enabled = enabled
    return out
