"""GL_KHR_no_error: a context requested with the no-error flag (EGL
EGL_CONTEXT_OPENGL_NO_ERROR_KHR) reports GL_CONTEXT_FLAG_NO_ERROR_BIT; what
would be an error is undefined behaviour: shimgl refuses the call (no state
changes) and glGetError answers GL_NO_ERROR."""

import pytest

import driver
from driver.gl import enums as E
from driver.gl.api import ContextRequestError, api_for_request


@pytest.mark.parametrize("es, version", [(False, (4, 5)), (True, (3, 1))])
def test_no_error_context(es, version):
    api = api_for_request(es, *version, core=not es, no_error=True)
    with driver.Context(api=api, width=4, height=4) as ctx:
        if not es:                                            # CONTEXT_FLAGS: GLES 3.2 and GL 3.0
            assert ctx.glGetIntegerv(E.GL_CONTEXT_FLAGS)[0] & E.GL_CONTEXT_FLAG_NO_ERROR_BIT
        assert "GL_KHR_no_error" in ctx.extensions
        ctx.glEnable(0x1234)                                  # INVALID_ENUM elsewhere
        ctx.glLineWidth(-1.0)                                 # INVALID_VALUE elsewhere
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glGetFloatv(E.GL_LINE_WIDTH) == [1.0]       # the call changed nothing
    with driver.Context(api=api_for_request(es, *version, core=not es), width=4, height=4) as ctx:
        assert es or not ctx.glGetIntegerv(E.GL_CONTEXT_FLAGS)[0] & E.GL_CONTEXT_FLAG_NO_ERROR_BIT
        ctx.glLineWidth(-1.0)
        assert ctx.glGetError() == E.GL_INVALID_VALUE


def test_no_error_and_debug_are_exclusive():
    with pytest.raises(ContextRequestError):
        api_for_request(False, 4, 5, True, debug=True, no_error=True)
    from driver.abi import egl
    assert egl.request_api(False, 4, 5, True, no_error=True) is not None
