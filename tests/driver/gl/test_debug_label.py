"""GL_EXT_debug_label: glLabelObjectEXT / glGetObjectLabelEXT over KHR_debug's object
labels, with the extension's object types, its INVALID_OPERATION for a name that is
no object, its lengths (0: null-terminated, negative: INVALID_VALUE) and the labels
shared with glObjectLabel. A label belongs to its object: a name deleted and made
again has none."""

import pytest

from driver.gl import enums as E

TYPES = [(E.GL_BUFFER_OBJECT_EXT, E.GL_BUFFER), (E.GL_SHADER_OBJECT_EXT, E.GL_SHADER),
         (E.GL_PROGRAM_OBJECT_EXT, E.GL_PROGRAM), (E.GL_VERTEX_ARRAY_OBJECT_EXT, E.GL_VERTEX_ARRAY),
         (E.GL_QUERY_OBJECT_EXT, E.GL_QUERY), (E.GL_PROGRAM_PIPELINE_OBJECT_EXT, E.GL_PROGRAM_PIPELINE),
         (E.GL_TEXTURE, E.GL_TEXTURE), (E.GL_FRAMEBUFFER, E.GL_FRAMEBUFFER),
         (E.GL_RENDERBUFFER, E.GL_RENDERBUFFER), (E.GL_SAMPLER, E.GL_SAMPLER),
         (E.GL_TRANSFORM_FEEDBACK, E.GL_TRANSFORM_FEEDBACK)]


def make(api):
    import driver
    return driver.Context(api=api, width=4, height=4)


def names(c):
    return [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]


def new_object(c, core_type):
    """A name of an existing object of the type (bound once where GL makes objects so)."""
    if core_type == E.GL_BUFFER:
        n = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_ARRAY_BUFFER, n)
    elif core_type == E.GL_SHADER:
        n = c.glCreateShader(E.GL_VERTEX_SHADER)
    elif core_type == E.GL_PROGRAM:
        n = c.glCreateProgram()
    elif core_type == E.GL_VERTEX_ARRAY:
        n = c.glCreateVertexArrays(1)[0]
    elif core_type == E.GL_QUERY:
        n = c.glCreateQueries(E.GL_SAMPLES_PASSED, 1)[0]
    elif core_type == E.GL_PROGRAM_PIPELINE:
        n = c.glCreateProgramPipelines(1)[0]
    elif core_type == E.GL_TEXTURE:
        n = c.glCreateTextures(E.GL_TEXTURE_2D, 1)[0]
    elif core_type == E.GL_FRAMEBUFFER:
        n = c.glCreateFramebuffers(1)[0]
    elif core_type == E.GL_RENDERBUFFER:
        n = c.glCreateRenderbuffers(1)[0]
    elif core_type == E.GL_SAMPLER:
        n = c.glCreateSamplers(1)[0]
    else:
        n = c.glCreateTransformFeedbacks(1)[0]
    assert c.glGetError() == E.GL_NO_ERROR
    return n


@pytest.mark.parametrize("api", ["compat", "gl46", "gles32"])
def test_listed_in_desktop_and_es(api):
    c = make(api)
    assert "GL_EXT_debug_label" in names(c)


@pytest.mark.parametrize("ext_type,core_type", TYPES)
def test_each_type_labels_its_objects_and_shares_khr_debug_labels(ext_type, core_type):
    c = make("gl46")
    n = new_object(c, core_type)
    assert c.glGetObjectLabelEXT(ext_type, n, 64) == ""
    c.glLabelObjectEXT(ext_type, n, 5, b"vertex data")            # 5 characters
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glGetObjectLabelEXT(ext_type, n, 64) == "verte"
    assert c.glGetObjectLabel(core_type, n, 64) == "verte"          # KHR_debug's label
    c.glObjectLabel(core_type, n, -1, b"from khr")
    assert c.glGetObjectLabelEXT(ext_type, n, 64) == "from khr"
    assert c.glGetObjectLabelEXT(ext_type, n, 5) == "from"          # bufSize counts the terminator
    c.glLabelObjectEXT(ext_type, n, 0, b"terminated")               # 0: null-terminated
    assert c.glGetObjectLabelEXT(ext_type, n, 64) == "terminated"
    c.glLabelObjectEXT(ext_type, n, 0, None)                        # NULL removes it
    assert c.glGetObjectLabelEXT(ext_type, n, 64) == ""
    assert c.glGetError() == E.GL_NO_ERROR


def test_errors_change_nothing():
    c = make("gl46")
    n = new_object(c, E.GL_BUFFER)
    c.glLabelObjectEXT(E.GL_BUFFER_OBJECT_EXT, n, 0, b"kept")
    c.glLabelObjectEXT(E.GL_BUFFER_OBJECT_EXT, n, -1, b"negative")
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glLabelObjectEXT(E.GL_BUFFER_OBJECT_EXT, 12345, 0, b"x")       # no such buffer
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glObjectLabel(E.GL_BUFFER, 12345, -1, b"x")                     # KHR_debug's error stays
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glLabelObjectEXT(E.GL_TEXTURE_2D, n, 0, b"x")                   # not a type
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glLabelObjectEXT(E.GL_BUFFER_OBJECT_EXT, n, 0, b"x" * 256)     # MAX_LABEL_LENGTH counts the terminator
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetIntegerv(E.GL_MAX_LABEL_LENGTH) == [256]
    assert c.glGetObjectLabelEXT(E.GL_BUFFER_OBJECT_EXT, n, -1) is None
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetObjectLabelEXT(E.GL_BUFFER_OBJECT_EXT, 12345, 8) is None
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetObjectLabelEXT(E.GL_BUFFER_OBJECT_EXT, n, 64) == "kept"
    # a texture name never bound is no texture object yet
    t = c.glGenTextures(1)[0]
    c.glLabelObjectEXT(E.GL_TEXTURE, t, 0, b"x")
    assert c.glGetError() == E.GL_INVALID_OPERATION


def test_a_label_goes_with_its_object():
    c = make("compat")                       # glBindBuffer makes a buffer of any name
    n = new_object(c, E.GL_BUFFER)
    c.glLabelObjectEXT(E.GL_BUFFER_OBJECT_EXT, n, 0, b"old")
    c.glDeleteBuffers(1, [n])
    c.glBindBuffer(E.GL_ARRAY_BUFFER, n)                              # the name made again
    assert c.glGetObjectLabelEXT(E.GL_BUFFER_OBJECT_EXT, n, 64) == ""
    assert c.glGetObjectLabel(E.GL_BUFFER, n, 64) == ""


def test_not_in_gles1():
    c = make("gles1")
    assert "GL_EXT_debug_label" not in c.glGetString(E.GL_EXTENSIONS).split()
