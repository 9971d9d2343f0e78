from driver.gl import enums as E


def err(ctx) -> int:
    return ctx.glGetError()


def expect(ctx, code):
    got = ctx.glGetError()
    assert got == code, f"expected {code:#x}, got {got:#x}; log: {ctx.error_log[-1:]}"
    assert ctx.glGetError() == E.GL_NO_ERROR
