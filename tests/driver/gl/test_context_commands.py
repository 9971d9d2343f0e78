"""The context's entry-point table comes from the registry (driver.gl.entrypoints,
driver/gl/registry_*.py generated from gl.xml): every command of every API,
version and extension a context claims has one implementation, and a command
outside the context's API (a later version's, the other API's, an extension's
the context lacks) is not reachable: GL_INVALID_OPERATION, nothing runs
(Mesa's per-API dispatch gives such a command its no-op entry)."""

import pytest

from driver.gl import API_NAMES, Context
from driver.gl import enums as E
from driver.gl.entrypoints import context_commands, registry_command_names
from driver.gl.families import command_owners
from driver.gl.families import FAMILIES
from driver.gl.features import _ENTRY_POINTS
from driver.gl.legacy.dlist import dispatch_table
from driver.gl.registry_aliases import ALIASES
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

TABLED = sorted(n for n, a in API_NAMES.items() if not a.es1)     # every API with an "api" table


@pytest.mark.parametrize("api", sorted(API_NAMES))
def test_every_command_the_context_claims_is_implemented(api):
    missing = sorted(n for n in context_commands(API_NAMES[api]) if not callable(getattr(Context, n, None)))
    assert missing == []


@pytest.mark.parametrize("api", TABLED)
def test_the_table_refuses_exactly_what_the_api_lacks(api):
    """In the table of a core, compatibility or ES 2.0+ context, each implemented
    registry command is a refusing entry iff the context does not have it (aliases
    of core commands check their own extensions)."""
    a = API_NAMES[api]
    table = dispatch_table(Context, "api", a)
    assert type(make_ctx(api)) is table
    has = context_commands(a)
    for name in registry_command_names():
        if not callable(getattr(Context, name, None)) or name in ALIASES:
            continue
        refused = getattr(getattr(table, name), "__gl_not_in_api__", False)
        assert refused == (name not in has), name


def test_no_command_is_implemented_twice():
    """Each gl* name has one definition among the families (hooks extend, they do
    not define), the feature modules and the registry's aliases."""
    definers: dict[str, list[str]] = {}
    for family in FAMILIES:
        for name, value in family.__dict__.items():
            if name.startswith("gl") and callable(value) and not getattr(value, "__gl_extends__", False):
                definers.setdefault(name, []).append(family.__name__)
    for name, fn in _ENTRY_POINTS.items():
        definers.setdefault(name, []).append(fn.__module__)
    twice = {n: d for n, d in definers.items() if len(d) > 1}
    assert twice == {}
    owners = command_owners()
    assert owners["glDrawArrays"] == "DrawMixin"
    assert owners["glBegin"] == "ImmediateMixin"
    assert owners["glDispatchComputeIndirect"] == "DrawMixin"
    assert owners["glBindBufferARB"] == "driver.gl.features.aliases"


@pytest.mark.parametrize("api, name, args", [
    ("gl33", "glDispatchCompute", (1, 1, 1)),                          # GL 4.3
    ("gl33", "glPatchParameteri", (E.GL_PATCH_VERTICES, 3)),           # GL 4.0
    ("gl41", "glVertexAttribBinding", (0, 0)),                         # GL 4.3
    ("gles2", "glBindVertexArray", (0,)),                              # GLES 3.0
    ("gles2", "glGenQueries", (1,)),                                   # GLES 3.0
    ("gles3", "glPolygonMode", (E.GL_FRONT_AND_BACK, E.GL_LINE)),      # desktop GL only
    ("gles31", "glClearDepth", (0.5,)),                                # desktop GL only
    ("gles32", "glGetTexImage", (E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
])
def test_a_command_outside_the_api_is_not_reachable(api, name, args):
    c = make_ctx(api)
    assert name not in context_commands(c.api) and callable(getattr(Context, name))
    before = (c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) if not c.api.es or c.api.version >= (3, 0) else None,
              c.state.polygon_mode, c.state.clear_depth, c.glGetError())
    assert getattr(c, name)(*args) is None
    expect(c, E.GL_INVALID_OPERATION)
    assert c.error_log[-1].endswith(f"{name} is not part of {api}")
    after = (c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) if not c.api.es or c.api.version >= (3, 0) else None,
             c.state.polygon_mode, c.state.clear_depth, c.glGetError())
    assert after == before


def test_the_same_command_is_reachable_where_the_api_has_it():
    c = make_ctx("gl43")
    (vao,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(vao)
    c.glClearDepth(0.5)
    expect(c, E.GL_NO_ERROR)
    assert c.state.clear_depth == 0.5
    es = make_ctx("gles3")
    es.glBindVertexArray(0)
    es.glClearDepthf(0.25)        # GLES's float form (which desktop GL 4.1 has too)
    expect(es, E.GL_NO_ERROR)
    assert es.state.clear_depth == 0.25


def test_an_extension_command_follows_the_extension():
    """glBlendBarrierKHR: reachable where KHR_blend_equation_advanced is listed
    (GLES 3.2 has glBlendBarrier itself), not in a context without the extension."""
    from driver.gl.extensions import available
    for api in ("gles2", "gles3", "gles32", "gl33", "gl46"):
        a = API_NAMES[api]
        has_ext = "GL_KHR_blend_equation_advanced" in available(a.es, a.core, a.version)
        assert ("glBlendBarrierKHR" in context_commands(a)) == has_ext, api
    assert "glBlendBarrier" in context_commands(API_NAMES["gles32"])
    # GLES 3.2's name, one entry with its KHR alias (as a slot of Mesa's dispatch): in a
    # desktop context exactly where the alias is
    for api in ("gl33", "gl46"):
        a = API_NAMES[api]
        assert ("glBlendBarrier" in context_commands(a)) == ("glBlendBarrierKHR" in context_commands(a))


def test_core_profiles_lack_what_only_the_compatibility_profile_requires():
    """GL 3.3's glVertexP2ui and GL 4.5's glGetnPolygonStipple are required of the
    compatibility profile only (the registry's profile="compatibility")."""
    for name in ("glVertexP2ui", "glColorP4ui", "glGetnPolygonStipple"):
        assert name not in context_commands(API_NAMES["gl46"])
        assert name in context_commands(API_NAMES["compat"])
    # the imaging subset's bounded reads: only with ARB_imaging, which shimgl lacks
    assert "glGetnColorTable" not in context_commands(API_NAMES["compat"])


def test_glvertexp_emits_packed_vertices():
    """glVertexP2ui/3ui (GL 3.3 compatibility, ARB_vertex_type_2_10_10_10_rev): the
    packed fields are the vertex's x, y (z), not normalised; a missing z is 0. Under
    glOrtho(0, 64, 0, 64, -1, 1) on a 64x64 viewport, object x, y are window x, y and
    window z is (1 - z) / 2; fed back as GL_3D points."""
    import numpy as np

    import driver
    c = driver.Context(api="compat", width=64, height=64)
    c.glMatrixMode(E.GL_PROJECTION)
    c.glOrtho(0, 64, 0, 64, -1, 1)
    c.glMatrixMode(E.GL_MODELVIEW)
    buf = np.zeros(16, np.float32)
    c.glFeedbackBuffer(16, E.GL_3D, buf)
    c.glRenderMode(E.GL_FEEDBACK)
    c.glBegin(E.GL_POINTS)
    c.glVertexP2ui(E.GL_UNSIGNED_INT_2_10_10_10_REV, 10 | (20 << 10))
    c.glVertexP3ui(E.GL_INT_2_10_10_10_REV, 5 | (7 << 10) | (1023 << 20))     # z = -1 (signed 10 bits)
    c.glEnd()
    assert c.glRenderMode(E.GL_RENDER) == 8
    expect(c, E.GL_NO_ERROR)
    assert buf[:8].tolist() == [E.GL_POINT_TOKEN, 10, 20, 0.5, E.GL_POINT_TOKEN, 5, 7, 1.0]


def test_the_front_end_may_still_use_a_refused_command_internally():
    """An entry point implemented with another command the API lacks (glClearDepth
    runs glClearDepthf) keeps working: a call from a module of the front end reaches
    the implementation; the same call from the application is refused."""
    c = make_ctx("gles2")
    probe = {"__name__": "driver.gl.internal_probe", "c": c}
    exec("c.glClearDepth(0.25)", probe)              # as code of driver.gl would call it
    expect(c, E.GL_NO_ERROR)
    assert c.state.clear_depth == 0.25
    c.glClearDepth(0.75)
    expect(c, E.GL_INVALID_OPERATION)
    assert c.state.clear_depth == 0.25


def test_texture_storage_is_reachable_where_its_extension_is_listed():
    """glTexStorage2D is GL 4.2's; GL_ARB_texture_storage, listed in every desktop
    context (as Mesa), brings it to a GL 3.2 core context, where it defines the
    levels; GLES 2.0 has neither (its EXT_texture_storage name is another command)."""
    c = make_ctx("gl32")
    assert "GL_ARB_texture_storage" in c.extensions
    (t,) = c.glGenTextures(1)
    c.glBindTexture(E.GL_TEXTURE_2D, t)
    c.glTexStorage2D(E.GL_TEXTURE_2D, 3, E.GL_RGBA8, 8, 4)
    expect(c, E.GL_NO_ERROR)
    assert c.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_IMMUTABLE_LEVELS) == [3]
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 2, E.GL_TEXTURE_WIDTH) == [2]
    es = make_ctx("gles2")
    assert "glTexStorage2D" not in context_commands(es.api)
    es.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4)
    expect(es, E.GL_INVALID_OPERATION)
