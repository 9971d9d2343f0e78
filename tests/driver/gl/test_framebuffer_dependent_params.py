"""GL 4.5 section 9.2.3: glGetFramebufferParameteriv (and glGetNamedFramebufferParameteriv)
answer the framebuffer-dependent values of table 23.74 -- DOUBLEBUFFER, STEREO,
IMPLEMENTATION_COLOR_READ_FORMAT/TYPE, SAMPLES, SAMPLE_BUFFERS -- for the framebuffer
given, default one included, as glGet answers them for a bound one: the same values
and the same errors (piglit's gl-4.5 compare-framebuffer-parameter-with-get). As in
Mesa, the colour read format and type of a framebuffer without a colour image to read
are INVALID_OPERATION."""

import pytest

from driver.gl import enums as E

PNAMES = (E.GL_DOUBLEBUFFER, E.GL_STEREO, E.GL_IMPLEMENTATION_COLOR_READ_FORMAT,
          E.GL_IMPLEMENTATION_COLOR_READ_TYPE, E.GL_SAMPLES, E.GL_SAMPLE_BUFFERS)


def make(api="gl46"):
    import driver
    return driver.Context(api=api, width=4, height=4)


def fbo(c, internal):
    fb = c.glCreateFramebuffers(1)[0]
    if internal is not None:
        rb = c.glCreateRenderbuffers(1)[0]
        c.glNamedRenderbufferStorage(rb, internal, 2, 2)
        c.glNamedFramebufferRenderbuffer(fb, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    return fb


def get(c, pname):
    v = c.glGetIntegerv(pname)
    return (v[0] if v else None), c.glGetError()


@pytest.mark.parametrize("internal,read", [
    ("default", (E.GL_RGBA, E.GL_UNSIGNED_BYTE)), (E.GL_R8, (E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
    (E.GL_RGBA16F, (E.GL_RGBA, E.GL_FLOAT)), (E.GL_RGBA32UI, (E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT)),
    (E.GL_RG16I, (E.GL_RGBA_INTEGER, E.GL_SHORT)), (None, None)])
def test_the_values_and_errors_of_glget(internal, read):
    c = make()
    fb = 0 if internal == "default" else fbo(c, internal)
    other = fbo(c, E.GL_RGBA8)
    for pname in PNAMES:
        c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        want = get(c, pname)
        got = c.glGetFramebufferParameteriv(E.GL_FRAMEBUFFER, pname)
        got = ((got[0] if got else None), c.glGetError())
        c.glBindFramebuffer(E.GL_FRAMEBUFFER, other)                  # the named query: fb not bound
        named = c.glGetNamedFramebufferParameteriv(fb, pname)
        named = ((named[0] if named else None), c.glGetError())
        assert got == want == named, (hex(pname), got, want, named)
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    if read is None:                                                  # no colour image to read
        assert get(c, E.GL_IMPLEMENTATION_COLOR_READ_FORMAT) == (None, E.GL_INVALID_OPERATION)
    else:
        assert (get(c, E.GL_IMPLEMENTATION_COLOR_READ_FORMAT)[0], get(c, E.GL_IMPLEMENTATION_COLOR_READ_TYPE)[0]) \
            == read
    assert get(c, E.GL_DOUBLEBUFFER) == (0, E.GL_NO_ERROR) and get(c, E.GL_STEREO) == (0, E.GL_NO_ERROR)


def test_read_buffer_none_has_nothing_to_read():
    c = make()
    fb = fbo(c, E.GL_RGBA8)
    c.glNamedFramebufferReadBuffer(fb, E.GL_NONE)
    assert c.glGetNamedFramebufferParameteriv(fb, E.GL_IMPLEMENTATION_COLOR_READ_TYPE) is None
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glNamedFramebufferReadBuffer(fb, E.GL_COLOR_ATTACHMENT0)
    assert c.glGetNamedFramebufferParameteriv(fb, E.GL_IMPLEMENTATION_COLOR_READ_TYPE) == [E.GL_UNSIGNED_BYTE]


@pytest.mark.parametrize("api", ["gl43", "gles31"])
def test_only_from_gl_4_5(api):
    c = make(api)
    fb = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    assert c.glGetFramebufferParameteriv(E.GL_FRAMEBUFFER, E.GL_DOUBLEBUFFER) is None
    assert c.glGetError() == E.GL_INVALID_ENUM
