"""glRenderbufferStorageMultisample (and its EXT name) is executed, not compiled,
inside glNewList, as glRenderbufferStorage is (GL 4.6 compatibility section
21.4.1: framebuffer and renderbuffer object commands are not display-listed).
piglit's ext_framebuffer_multisample-dlist failed: the call was recorded."""

import driver
from driver.gl import enums as E


def test_renderbuffer_storage_multisample_runs_during_compile():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        (rb,) = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        lst = ctx.glGenLists(1)
        ctx.glNewList(lst, E.GL_COMPILE)
        ctx.glRenderbufferStorageMultisampleEXT(E.GL_RENDERBUFFER, 2, E.GL_RGBA8, 8, 8)
        ctx.glEndList()
        size = lambda: [ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, p)[0]   # noqa: E731
                        for p in (E.GL_RENDERBUFFER_WIDTH, E.GL_RENDERBUFFER_SAMPLES)]
        assert size() == [8, 2]                      # done at compile time
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, E.GL_RGBA8, 4, 4)
        ctx.glCallList(lst)                          # the list is empty: nothing changes
        assert size() == [4, 4]
        assert ctx.glGetError() == E.GL_NO_ERROR
