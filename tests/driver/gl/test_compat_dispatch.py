"""The compatibility profile's commands are in the dispatch of compatibility
contexts only (driver/gl/legacy/dlist.py, the "api" tables): in a core-profile
or OpenGL ES 2.0+ context they are entries that record GL_INVALID_OPERATION
and run nothing, as Mesa's dispatch gives a command outside the context's API
its no-op entry; and the registry's command lists per API (driver.gl.entrypoints,
driver.gl.profiles)."""

import pytest

from driver.gl import Context
from driver.gl import enums as E
from driver.gl.families import entry_points
from driver.gl.profiles import COMPATIBILITY_ONLY, COMPATIBILITY_ONLY_ALIASES
from driver.gl.legacy.dlist import dispatch_table
from driver.gl.registry_commands import ADDED_IN, CORE_REMOVED
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


def test_the_compatibility_only_commands_come_from_the_registry():
    assert {"glBegin", "glLightfv", "glNewList", "glPushAttrib", "glRasterPos2f"} <= COMPATIBILITY_ONLY
    assert COMPATIBILITY_ONLY <= CORE_REMOVED
    # GL 4.3 requires glGetPointerv again (KHR_debug's callback pointer), as does ES 3.2
    assert "glGetPointerv" in CORE_REMOVED and "glGetPointerv" not in COMPATIBILITY_ONLY
    es = {n for (api, _), names in ADDED_IN.items() if api == "gles2" for n in names}
    assert not COMPATIBILITY_ONLY & es
    assert {"glClientActiveTextureARB", "glFogCoordfEXT"} <= COMPATIBILITY_ONLY_ALIASES


def test_core_entry_points_follow_the_registry_order():
    """Removed in 3.2 core, required again by 4.3: a 4.3 core context has it, 3.3 does not."""
    assert "glGetPointerv" in entry_points("gl43")
    assert "glGetPointerv" not in entry_points("gl33")
    assert "glGetPointerv" in entry_points("compat")
    assert not set(entry_points("gl43")) & COMPATIBILITY_ONLY
    assert "glBegin" in entry_points("compat")


@pytest.mark.parametrize("api", ["gles2", "gles3", "gles31", "gl33", "gl43"])
def test_other_contexts_get_stubs(api):
    c = make_ctx(api)
    core = dispatch_table(Context, "api", c.api)
    assert type(c) is core and issubclass(core, Context)
    vp = c.glGetIntegerv(E.GL_VIEWPORT)
    c.glBegin(E.GL_TRIANGLES)
    expect(c, E.GL_INVALID_OPERATION)
    assert c.error_log[-1].endswith(f"glBegin is not part of {c.api.name}")
    c.glVertex3f(1.0, 2.0, 3.0)
    expect(c, E.GL_INVALID_OPERATION)
    c.glNewList(1, E.GL_COMPILE)
    expect(c, E.GL_INVALID_OPERATION)
    assert type(c) is core                       # nothing switched to the checked table
    c.glLightfv(E.GL_LIGHT0, E.GL_POSITION, (1.0, 1.0, 1.0, 0.0))
    expect(c, E.GL_INVALID_OPERATION)
    c.glClientActiveTextureARB(E.GL_TEXTURE1)           # an extension alias of a removed command
    expect(c, E.GL_INVALID_OPERATION)
    # nothing ran: the core state and the legacy state are as they were
    assert c.glGetIntegerv(E.GL_VIEWPORT) == vp
    assert c.legacy.lights[0].position == make_ctx(api).legacy.lights[0].position
    # the core commands run as before
    c.glClearColor(0.5, 0.5, 0.5, 1.0)
    expect(c, E.GL_NO_ERROR)


def test_compatibility_contexts_keep_the_commands():
    c = make_ctx("compat")
    assert type(c) is dispatch_table(Context, "api", c.api)
    c.glLightfv(E.GL_LIGHT0, E.GL_POSITION, (1.0, 1.0, 1.0, 0.0))
    expect(c, E.GL_NO_ERROR)
    c.glBegin(E.GL_TRIANGLES)
    c.glVertex3f(1.0, 2.0, 3.0)
    c.glEnd()
    expect(c, E.GL_NO_ERROR)


@pytest.mark.parametrize("name, args", [
    # (glPrimitiveBoundingBox, GLES 3.2's, is a compatibility context's since it lists
    # ARB_ES3_2_compatibility: its alias glPrimitiveBoundingBoxARB is the same entry)
    ("glDiscardFramebufferEXT", (E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0])),  # a GLES-only extension's
    ("glOrthofOES", (-2.0, 2.0, -2.0, 2.0, -2.0, 2.0)),                        # an ES 1.1 extension's
    # (ES 1.1's own commands, glColor4x, glOrthof, are a compatibility context's through
    # GL_NV_ES1_1_compatibility: test_nv_es1_1_compatibility.py)
    ("glDrawTexiOES", (0, 0, 0, 1, 1)),                                        # OES_draw_texture
    ("glBindFramebufferOES", (E.GL_FRAMEBUFFER, 7)),                           # OES_framebuffer_object
    ("glGenQueriesEXT", (1,)),                                                 # EXT_occlusion_query_boolean
])
def test_a_compatibility_context_refuses_what_its_api_lacks(name, args):
    """A compatibility context has its API's commands only (the GL 4.6
    compatibility profile's and its extensions'): an ES command or an unlisted
    extension's is GL_INVALID_OPERATION and changes nothing, at any moment
    (outside and inside glBegin/glEnd, while a list is compiled: nothing is
    recorded)."""
    c = make_ctx("compat")
    assert name in Context.__dict__ or callable(getattr(Context, name))
    projection = c.glGetFloatv(E.GL_PROJECTION_MATRIX)
    color = c.glGetFloatv(E.GL_CURRENT_COLOR)
    fb = c.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING)
    assert getattr(c, name)(*args) is None
    expect(c, E.GL_INVALID_OPERATION)
    assert c.error_log[-1].endswith(f"{name} is not part of compat")
    c.glNewList(1, E.GL_COMPILE_AND_EXECUTE)
    getattr(c, name)(*args)
    expect(c, E.GL_INVALID_OPERATION)
    c.glEndList()
    c.glBegin(E.GL_POINTS)
    getattr(c, name)(*args)
    # refused, not "between glBegin and glEnd" (the error is read after glEnd: glGetError
    # between them returns 0)
    assert c.error_log[-1].endswith(f"{name} is not part of compat")
    c.glEnd()
    expect(c, E.GL_INVALID_OPERATION)
    c.glCallList(1)                          # the list recorded nothing
    expect(c, E.GL_NO_ERROR)
    assert c.glGetFloatv(E.GL_PROJECTION_MATRIX) == projection
    assert c.glGetFloatv(E.GL_CURRENT_COLOR) == color
    assert c.glGetIntegerv(E.GL_DRAW_FRAMEBUFFER_BINDING) == fb
    assert c.glGenQueries(1) == [1]          # the core command still runs: no name was taken


def test_a_compatibility_context_keeps_its_extensions_and_aliases():
    c = make_ctx("compat")
    c.glMatrixMode(E.GL_PROJECTION)
    c.glLoadIdentity()
    c.glOrtho(-2.0, 2.0, -2.0, 2.0, -2.0, 2.0)             # GL 1.0: the same matrix glOrthofOES would set
    expect(c, E.GL_NO_ERROR)
    assert c.glGetFloatv(E.GL_PROJECTION_MATRIX)[0] == 0.5
    c.glBindFramebufferEXT(E.GL_FRAMEBUFFER, 0)            # EXT_framebuffer_object: listed in compat
    c.glGenQueriesARB(1)                                    # ARB_occlusion_query's alias of glGenQueries
    c.glClientActiveTextureARB(E.GL_TEXTURE1)              # an alias of a compatibility-only command
    expect(c, E.GL_NO_ERROR)
