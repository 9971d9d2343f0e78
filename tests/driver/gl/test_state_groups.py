"""The context's fixed-function state as typed groups with generation counters
(driver/gl/state.py): which setter changes which group, that an unchanged
value keeps the generation, that the flat field names and the groups are one
state, and that glGet reads the groups."""

import copy

import pytest

from driver.gl import enums as E
from driver.gl.state import FIELD_GROUPS, GROUPS, EnableSet, GLState, RtBlend, StencilFace
from tests.driver.gl.conftest import make_ctx


def _gens(s: GLState) -> dict[str, int]:
    out = {name: getattr(s, name).gen for name in GROUPS}
    out["enabled"] = s.enabled.gen
    return out


# (entry point call, the one group whose own generation it changes)
SETTERS = [
    (lambda c: c.glDepthFunc(E.GL_GEQUAL), "depth_buffer"),
    (lambda c: c.glDepthMask(False), "depth_buffer"),
    (lambda c: c.glClearDepthf(0.25), "depth_buffer"),
    (lambda c: c.glBlendColor(0.5, 0.25, 0.0, 1.0), "color_buffer"),
    (lambda c: c.glClearColor(1.0, 0.0, 0.0, 1.0), "color_buffer"),
    (lambda c: c.glClearStencil(3), "stencil_buffer"),
    (lambda c: c.glViewport(1, 2, 30, 20), "viewports"),
    (lambda c: c.glScissor(1, 2, 3, 4), "viewports"),
    (lambda c: c.glDepthRangef(0.25, 0.75), "viewports"),
    (lambda c: c.glCullFace(E.GL_FRONT), "raster"),
    (lambda c: c.glFrontFace(E.GL_CW), "raster"),
    (lambda c: c.glPolygonOffset(1.0, 2.0), "raster"),
    (lambda c: c.glLineWidth(2.0), "raster"),
    (lambda c: c.glSampleCoverage(0.5, True), "multisample"),
    (lambda c: c.glEnable(E.GL_DEPTH_TEST), "enabled"),
    (lambda c: c.glDisable(E.GL_DITHER), "enabled"),
]


@pytest.mark.parametrize("call, group", SETTERS)
def test_a_setter_changes_its_group_only(call, group):
    c = make_ctx("gles3")
    before = _gens(c.state)
    call(c)
    assert c.glGetError() == E.GL_NO_ERROR
    after = _gens(c.state)
    changed = {g for g in before if before[g] != after[g]}
    assert changed == {group}
    # the same call again changes nothing: the generation stays
    call(c)
    assert _gens(c.state) == after


def test_nested_groups_have_their_own_generations():
    c = make_ctx("gles3")
    s = c.state
    rt0, front, back = s.rt[0].gen, s.stencil[0].gen, s.stencil[1].gen
    key = s.color_buffer.key()
    c.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    assert s.rt[0].gen != rt0 and s.color_buffer.key() != key
    c.glStencilFuncSeparate(E.GL_BACK, E.GL_EQUAL, 1, 0xFF)
    assert s.stencil[0].gen == front and s.stencil[1].gen != back
    unpack = s.unpack.gen
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    assert s.unpack.gen != unpack and s.pixel.unpack is s.unpack


def test_generations_are_never_reused():
    """One counter for every group of every context: equal generations mean
    the same content (a copy or a restored value gets a new one)."""
    a, b = make_ctx("gles3"), make_ctx("gles3")
    gens = [g for c in (a, b) for g in _gens(c.state).values()]
    assert len(set(gens)) == len(gens)
    face = StencilFace()
    copied = copy.deepcopy(face)
    assert copied == face and copied.gen != face.gen


def test_flat_names_are_the_group_fields():
    c = make_ctx("gl43")
    s = c.state
    c.glDepthFunc(E.GL_NOTEQUAL)
    assert s.depth_func is s.depth_buffer.depth_func == E.GL_NOTEQUAL
    gen = s.raster.gen
    s.polygon_mode = E.GL_LINE                        # the flat spelling bumps the same group
    assert s.raster.polygon_mode == E.GL_LINE and s.raster.gen != gen
    s.enabled = {E.GL_BLEND}                          # a plain set becomes an EnableSet
    assert isinstance(s.enabled, EnableSet) and s.enabled == {E.GL_BLEND}
    with pytest.raises(AttributeError):
        s.not_a_state_field = 1                       # state lives in a group, nowhere else


def test_every_field_has_one_group():
    seen = {}
    for name, cls in GROUPS.items():
        for field in cls.__dataclass_fields__:
            assert field not in seen, (field, seen.get(field), name)
            seen[field] = name
    assert seen == FIELD_GROUPS


def test_get_reads_the_groups():
    c = make_ctx("gl43")
    c.state.depth_buffer.depth_func = E.GL_GREATER
    c.state.viewports.viewport = (3, 4, 50, 60)
    c.state.color_buffer.rt[0] = RtBlend(src_rgb=E.GL_DST_COLOR)
    c.state.stencil_buffer.stencil[1].ref = 7
    assert c.glGetIntegerv(E.GL_DEPTH_FUNC) == [E.GL_GREATER]
    assert c.glGetIntegerv(E.GL_VIEWPORT) == [3, 4, 50, 60]
    assert c.glGetIntegerv(E.GL_BLEND_SRC_RGB) == [E.GL_DST_COLOR]
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_REF) == [7]


def test_copy_is_independent():
    c = make_ctx("gl43")
    s = c.state
    out = s.copy()
    out.viewport = (1, 1, 1, 1)
    out.enabled.add(E.GL_SCISSOR_TEST)
    assert s.viewport == (0, 0, 64, 32) and E.GL_SCISSOR_TEST not in s.enabled
    assert out.depth_func == s.depth_func


def test_push_pop_attrib_restores_groups():
    c = make_ctx("compat")
    s = c.state
    c.glDepthFunc(E.GL_LEQUAL)
    c.glEnable(E.GL_DEPTH_TEST)
    c.glPushAttrib(E.GL_DEPTH_BUFFER_BIT | E.GL_ENABLE_BIT | E.GL_COLOR_BUFFER_BIT)
    c.glDepthFunc(E.GL_ALWAYS)
    c.glDisable(E.GL_DEPTH_TEST)
    c.glBlendFunc(E.GL_ONE, E.GL_ONE)
    gens = _gens(s)
    c.glPopAttrib()
    assert c.glGetError() == E.GL_NO_ERROR
    assert s.depth_func == E.GL_LEQUAL and E.GL_DEPTH_TEST in s.enabled
    assert s.rt[0].src_rgb == E.GL_ONE and s.rt[0].dst_rgb == E.GL_ZERO
    after = _gens(s)
    assert after["depth_buffer"] != gens["depth_buffer"] and after["color_buffer"] != gens["color_buffer"]
