"""Small legacy extensions of compatibility contexts, each tested for what it
specifies (against hand-computed values): GL_ATI_draw_buffers,
GL_ARB_vertex_type_2_10_10_10_rev in the compatibility profile."""

import numpy as np
import pytest

from driver.gl import enums as E

W = H = 8


@pytest.fixture
def ctx():
    import driver
    return driver.Context(api="compat", width=W, height=H)


def listed(c, name):
    return name in c.glGetString(E.GL_EXTENSIONS).split()


def quad(c):
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex2f(x, y)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def two_target_fbo(c):
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    for k, tex in enumerate(c.glGenTextures(2)):
        c.glBindTexture(E.GL_TEXTURE_2D, tex)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + k, E.GL_TEXTURE_2D, tex, 0)
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fbo


def read(c, attachment):
    c.glReadBuffer(attachment)
    data = c.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(H, W, 4)


# -- GL_ATI_draw_buffers ----------------------------------------------------------------------
def test_ati_draw_buffers_option_and_entry_point(ctx):
    c = ctx
    assert listed(c, "GL_ATI_draw_buffers")
    assert c.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0] >= 4        # MAX_DRAW_BUFFERS_ATI: the same enum
    two_target_fbo(c)
    c.glDrawBuffersATI(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert c.glGetIntegerv(E.GL_DRAW_BUFFER1) == [E.GL_COLOR_ATTACHMENT1]
    text = (b"!!ARBfp1.0\nOPTION ATI_draw_buffers;\n"
            b"MOV result.color[0], {0.25, 0.5, 0.75, 1.0};\nMOV result.color[1], {1.0, 0.75, 0.5, 0.25};\nEND\n")
    c.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, 1)
    c.glProgramStringARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    assert c.glGetError() == E.GL_NO_ERROR, c.glGetString(E.GL_PROGRAM_ERROR_STRING_ARB)
    c.glEnable(E.GL_FRAGMENT_PROGRAM_ARB)
    quad(c)
    assert (read(c, E.GL_COLOR_ATTACHMENT0) == [64, 128, 191, 255]).all()
    assert (read(c, E.GL_COLOR_ATTACHMENT1) == [255, 191, 128, 64]).all()


def test_ati_draw_buffers_option_is_needed_for_an_index(ctx):
    c = ctx
    text = b"!!ARBfp1.0\nMOV result.color[1], {1.0, 0.75, 0.5, 0.25};\nEND\n"
    c.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, 1)
    c.glProgramStringARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetIntegerv(E.GL_PROGRAM_ERROR_POSITION_ARB) == [text.index(b"[")]


# -- GL_ARB_vertex_type_2_10_10_10_rev in the compatibility profile ---------------------------
def _pack(x, y, z, w):
    """An UNSIGNED_INT_2_10_10_10_REV word: x in bits 0-9, y 10-19, z 20-29, w 30-31."""
    return x | (y << 10) | (z << 20) | (w << 30)


def test_packed_formats_listed_and_drawn_in_the_compatibility_profile(ctx):
    """A packed colour array (UNSIGNED_INT_2_10_10_10_REV, normalised) and
    glColorP3ui/glSecondaryColorP3ui through the fixed-function pipeline."""
    c = ctx
    assert listed(c, "GL_ARB_vertex_type_2_10_10_10_rev")
    word = _pack(1023, 512, 0, 3)                 # (1, 512/1023, 0, 1)
    colours = np.array([word] * 4, np.uint32)
    positions = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, positions.tobytes())
    c.glEnableClientState(E.GL_COLOR_ARRAY)
    c.glColorPointer(4, E.GL_UNSIGNED_INT_2_10_10_10_REV, 0, colours.tobytes())
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]
    c.glDrawArrays(E.GL_QUADS, 0, 4)
    px = np.asarray(c.read_pixels())[4, 4]
    assert abs(int(px[0]) - 255) <= 1 and abs(int(px[1]) - round(512 / 1023 * 255)) <= 1 and px[2] == 0
    c.glDisableClientState(E.GL_COLOR_ARRAY)
    c.glColorP3ui(E.GL_UNSIGNED_INT_2_10_10_10_REV, _pack(0, 1023, 256, 0))
    c.glSecondaryColorP3ui(E.GL_UNSIGNED_INT_2_10_10_10_REV, _pack(512, 0, 0, 0))
    c.glEnable(E.GL_COLOR_SUM)
    c.glDrawArrays(E.GL_QUADS, 0, 4)
    px = np.asarray(c.read_pixels())[4, 4].astype(int)
    want = np.round(np.clip([512 / 1023, 1.0, 256 / 1023], 0, 1) * 255)
    assert (abs(px[:3] - want) <= 1).all(), (px, want)


def test_packed_bgra_colours_and_their_errors(ctx):
    c = ctx
    positions = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, positions.tobytes())
    c.glEnableClientState(E.GL_COLOR_ARRAY)
    # BGRA: the word's x is blue, z is red
    c.glColorPointer(E.GL_BGRA, E.GL_UNSIGNED_INT_2_10_10_10_REV, 0,
                     np.array([_pack(0, 512, 1023, 3)] * 4, np.uint32).tobytes())
    c.glDrawArrays(E.GL_QUADS, 0, 4)
    px = np.asarray(c.read_pixels())[4, 4].astype(int)
    assert abs(px[0] - 255) <= 1 and abs(px[1] - 128) <= 1 and px[2] == 0, px
    for size, type, error in ((3, E.GL_UNSIGNED_INT_2_10_10_10_REV, E.GL_INVALID_OPERATION),
                              (E.GL_BGRA, E.GL_FLOAT, E.GL_INVALID_OPERATION),
                              (2, E.GL_UNSIGNED_BYTE, E.GL_INVALID_VALUE)):
        c.glColorPointer(size, type, 0, None)
        assert c.glGetError() == error
    assert c.glGetPointerv(E.GL_COLOR_ARRAY_POINTER) is not None
    assert c.glGetIntegerv(E.GL_COLOR_ARRAY_SIZE) == [E.GL_BGRA]       # unchanged by the errors


# -- GL_NV_fog_distance -----------------------------------------------------------------------
@pytest.mark.parametrize("mode,z,distance", [
    (E.GL_EYE_PLANE_ABSOLUTE_NV, -0.5, 0.5),       # |ze|
    (E.GL_EYE_PLANE, 0.5, 0.5),                    # ze, signed
    (E.GL_EYE_PLANE, -0.5, -0.5),                  # (f > 1: clamped, no fog)
    # the eye-space distance, per vertex (the specification allows interpolating it):
    # every corner of the window-filling quad is sqrt(1 + 1 + 0.25) = 1.5 away
    (E.GL_EYE_RADIAL_NV, 0.5, 1.5)])
def test_fog_distance_modes(ctx, mode, z, distance):
    c = ctx
    assert listed(c, "GL_NV_fog_distance")
    assert c.glGetIntegerv(E.GL_FOG_DISTANCE_MODE_NV) == [E.GL_EYE_PLANE_ABSOLUTE_NV]
    c.glFogi(E.GL_FOG_MODE, E.GL_LINEAR)
    c.glFogf(E.GL_FOG_START, 0.0)
    c.glFogf(E.GL_FOG_END, 2.0)
    c.glFogfv(E.GL_FOG_COLOR, [0.0, 1.0, 0.0, 1.0])
    c.glFogi(E.GL_FOG_DISTANCE_MODE_NV, mode)
    assert c.glGetIntegerv(E.GL_FOG_DISTANCE_MODE_NV) == [mode]
    c.glEnable(E.GL_FOG)
    c.glColor3f(1.0, 0.0, 0.0)
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex3f(x, y, z)
    c.glEnd()
    f = min(max((2.0 - distance) / 2.0, 0.0), 1.0)
    px = np.asarray(c.read_pixels())[4, 4].astype(int)
    assert abs(px[0] - round(f * 255)) <= 2 and abs(px[1] - round((1 - f) * 255)) <= 2, (px, f)


def test_fog_distance_errors_and_attribute_stack(ctx):
    c = ctx
    c.glFogi(E.GL_FOG_DISTANCE_MODE_NV, E.GL_EYE_LINEAR)
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glPushAttrib(E.GL_FOG_BIT)
    c.glFogi(E.GL_FOG_DISTANCE_MODE_NV, E.GL_EYE_RADIAL_NV)
    c.glPopAttrib()
    assert c.glGetIntegerv(E.GL_FOG_DISTANCE_MODE_NV) == [E.GL_EYE_PLANE_ABSOLUTE_NV]
    assert c.glGetError() == E.GL_NO_ERROR


# -- GL_MESA_pack_invert ----------------------------------------------------------------------
@pytest.mark.parametrize("api", ["compat", "gl43"])
def test_pack_invert_reads_images_top_row_first(api):
    import driver
    c = driver.Context(api=api, width=W, height=H)
    assert listed(c, "GL_MESA_pack_invert") if api == "compat" else True
    assert c.glGetIntegerv(E.GL_PACK_INVERT_MESA) == [0]
    c.glEnable(E.GL_SCISSOR_TEST)
    for y in range(H):                              # row y: red = 16 * y
        c.glScissor(0, y, W, 1)
        c.glClearColor(16 * y / 255, 0.0, 0.0, 1.0)
        c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glDisable(E.GL_SCISSOR_TEST)
    normal = np.frombuffer(bytes(c.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    c.glPixelStorei(E.GL_PACK_INVERT_MESA, 1)
    assert c.glGetBooleanv(E.GL_PACK_INVERT_MESA) == [True]
    inverted = np.frombuffer(bytes(c.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (normal.reshape(H, W, 4)[:, 0, 0] == 16 * np.arange(H)).all()
    assert (inverted.reshape(H, W, 4) == normal.reshape(H, W, 4)[::-1]).all()
    # with a row length and an alignment: the rows keep their places, in reverse order
    c.glPixelStorei(E.GL_PACK_ALIGNMENT, 8)
    part = np.frombuffer(bytes(c.glReadPixels(1, 2, 3, 4, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert part.size == 3 * 16 + 9                  # the last row unpadded
    rows = np.concatenate([part, np.zeros(7, np.uint8)]).reshape(4, 16)[:, :9].reshape(4, 3, 3)
    assert (rows[:, 0, 0] == 16 * np.array([5, 4, 3, 2])).all()
    c.glPixelStorei(E.GL_PACK_INVERT_MESA, 0)
    c.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 4)
    assert c.glGetError() == E.GL_NO_ERROR


def test_pack_invert_applies_to_texture_images_and_the_client_stack(ctx):
    c = ctx
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    texels = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(3, 2, 4)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 3, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
    c.glPushClientAttrib(E.GL_CLIENT_PIXEL_STORE_BIT)
    c.glPixelStorei(E.GL_PACK_INVERT_MESA, 1)
    got = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (got.reshape(3, 2, 4) == texels[::-1]).all()
    c.glPopClientAttrib()
    assert c.glGetIntegerv(E.GL_PACK_INVERT_MESA) == [0]
    c.glPixelStorei(E.GL_UNPACK_INVERT_MESA if hasattr(E, "GL_UNPACK_INVERT_MESA") else 0x8759, 1)
    assert c.glGetError() == E.GL_INVALID_ENUM                       # pack state only


# -- GL_APPLE_vertex_array_object -------------------------------------------------------------
def test_apple_vertex_array_objects_are_made_by_binding(ctx):
    c = ctx
    assert listed(c, "GL_APPLE_vertex_array_object")
    assert not c.glIsVertexArrayAPPLE(5)
    c.glBindVertexArrayAPPLE(5)                     # no Gen: binding an unused name makes it
    assert c.glGetError() == E.GL_NO_ERROR and c.glIsVertexArrayAPPLE(5)
    assert c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [5]
    (name,) = c.glGenVertexArraysAPPLE(1)
    assert name not in (0, 5) and not c.glIsVertexArrayAPPLE(name)     # reserved, not an object yet
    # client arrays live in the object: draw from one, switch to the default and back
    positions = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    c.glVertexPointer(2, E.GL_FLOAT, 0, positions.tobytes())
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glBindVertexArrayAPPLE(0)
    assert not c.glIsEnabled(E.GL_VERTEX_ARRAY)
    c.glBindVertexArrayAPPLE(5)
    assert c.glIsEnabled(E.GL_VERTEX_ARRAY)
    c.glColor3f(0.0, 1.0, 0.0)
    c.glDrawArrays(E.GL_QUADS, 0, 4)
    assert list(np.asarray(c.read_pixels())[4, 4][:3]) == [0, 255, 0]
    c.glDeleteVertexArraysAPPLE(1, [5])
    assert not c.glIsVertexArrayAPPLE(5) and c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [0]
    assert c.glGetError() == E.GL_NO_ERROR


def test_apple_binding_is_client_vertex_array_state(ctx):
    """The binding is in the vertex-array client attribute group: a pop binds the
    pushed object again, made again if deleted meanwhile, with its arrays."""
    c = ctx
    (obj,) = c.glGenVertexArraysAPPLE(1)
    c.glBindVertexArrayAPPLE(obj)
    c.glVertexPointer(4, E.GL_FLOAT, 16, 0x1000)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glPushClientAttrib(E.GL_CLIENT_VERTEX_ARRAY_BIT)
    c.glVertexPointer(4, E.GL_FLOAT, 16, 0x2000)
    c.glDeleteVertexArraysAPPLE(1, [obj])
    assert not c.glIsVertexArrayAPPLE(obj)
    c.glPopClientAttrib()
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glIsVertexArrayAPPLE(obj) and c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING) == [obj]
    assert c.glIsEnabled(E.GL_VERTEX_ARRAY)
    assert c.glGetPointerv(E.GL_VERTEX_ARRAY_POINTER) == 0x1000


# -- GL_ARB_debug_output ----------------------------------------------------------------------
@pytest.mark.parametrize("api", ["compat", "gl43"])
def test_arb_debug_output_log_callback_and_its_narrower_tables(api):
    import driver
    c = driver.Context(api=api, width=W, height=H)
    n = c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    assert "GL_ARB_debug_output" in {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    c.glEnable(E.GL_DEBUG_OUTPUT)
    app, marker, notification = E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, E.GL_DEBUG_SEVERITY_NOTIFICATION
    # KHR_debug's additions are not ARB_debug_output's: INVALID_ENUM, nothing logged
    c.glDebugMessageInsertARB(app, marker, 1, E.GL_DEBUG_SEVERITY_HIGH, -1, "marker")
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glDebugMessageInsertARB(app, E.GL_DEBUG_TYPE_OTHER, 1, notification, -1, "notification")
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glDebugMessageControlARB(E.GL_DONT_CARE, marker, E.GL_DONT_CARE, 0, [], False)
    assert c.glGetError() == E.GL_INVALID_ENUM
    errors = c.glGetDebugMessageLogARB(10)          # the three GL errors' messages, none inserted
    assert errors.count == 3 and errors[0] == [E.GL_DEBUG_SOURCE_API] * 3
    c.glDebugMessageInsertARB(app, E.GL_DEBUG_TYPE_PORTABILITY, 7, E.GL_DEBUG_SEVERITY_MEDIUM, 5, "hello world")
    log = c.glGetDebugMessageLogARB(10)
    assert log.count == 1 and log[:5] == ([app], [E.GL_DEBUG_TYPE_PORTABILITY], [7], [E.GL_DEBUG_SEVERITY_MEDIUM], [6])
    assert log[5] == b"hello\0"
    # an API error through the ARB callback; disabled by ARB message control: silent
    seen = []
    c.glDebugMessageCallbackARB(lambda *m: seen.append(m[:4]), None)
    c.glEnable(0xFFFFFFF)
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert seen and seen[-1][0] == E.GL_DEBUG_SOURCE_API and seen[-1][1] == E.GL_DEBUG_TYPE_ERROR
    c.glDebugMessageControlARB(E.GL_DEBUG_SOURCE_API, E.GL_DEBUG_TYPE_ERROR, E.GL_DONT_CARE, 0, [], False)
    before = len(seen)
    c.glEnable(0xFFFFFFF)
    assert c.glGetError() == E.GL_INVALID_ENUM and len(seen) == before


# -- GL_EXT_vertex_array ----------------------------------------------------------------------
def test_ext_vertex_array_counted_pointers_draw(ctx):
    c = ctx
    assert listed(c, "GL_EXT_vertex_array")
    positions = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    colours = np.array([[0, 0, 255, 255]] * 4, np.uint8)
    c.glVertexPointerEXT(2, E.GL_FLOAT, 0, 4, positions.tobytes())
    c.glColorPointerEXT(4, E.GL_UNSIGNED_BYTE, 0, 4, colours.tobytes())
    c.glClientActiveTexture(E.GL_TEXTURE1)
    c.glTexCoordPointerEXT(2, E.GL_FLOAT, 8, 3, positions.tobytes())
    c.glClientActiveTexture(E.GL_TEXTURE0)
    c.glEdgeFlagPointerEXT(0, 4, bytes([1, 1, 1, 1]))
    c.glNormalPointerEXT(E.GL_FLOAT, 0, 2, np.zeros(6, np.float32).tobytes())
    c.glIndexPointerEXT(E.GL_FLOAT, 0, 1, np.zeros(1, np.float32).tobytes())
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]
    counts = {name: c.glGetIntegerv(name)[0] for name in (
        E.GL_VERTEX_ARRAY_COUNT_EXT, E.GL_COLOR_ARRAY_COUNT_EXT, E.GL_TEXTURE_COORD_ARRAY_COUNT_EXT,
        E.GL_EDGE_FLAG_ARRAY_COUNT_EXT, E.GL_NORMAL_ARRAY_COUNT_EXT, E.GL_INDEX_ARRAY_COUNT_EXT)}
    assert list(counts.values()) == [4, 4, 0, 4, 2, 1]          # texture coordinates: unit 0's
    c.glClientActiveTexture(E.GL_TEXTURE1)
    assert c.glGetIntegerv(E.GL_TEXTURE_COORD_ARRAY_COUNT_EXT) == [3]
    assert c.glGetIntegerv(E.GL_TEXTURE_COORD_ARRAY_STRIDE) == [8]
    c.glClientActiveTexture(E.GL_TEXTURE0)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glEnableClientState(E.GL_COLOR_ARRAY)
    c.glDrawArraysEXT(E.GL_QUADS, 0, 4)
    assert list(np.asarray(c.read_pixels())[4, 4][:3]) == [0, 0, 255]
    # errors: nothing changes
    c.glVertexPointerEXT(2, E.GL_FLOAT, 0, -1, positions.tobytes())
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glVertexPointerEXT(5, E.GL_FLOAT, 0, 9, positions.tobytes())
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glColorPointerEXT(4, E.GL_UNSIGNED_BYTE, -4, 9, colours.tobytes())
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetIntegerv(E.GL_VERTEX_ARRAY_COUNT_EXT) == [4] and c.glGetIntegerv(E.GL_VERTEX_ARRAY_SIZE) == [2]
    assert c.glGetIntegerv(E.GL_COLOR_ARRAY_COUNT_EXT) == [4]
