from driver.gl import enums as E


def err(ctx) -> int:
    return ctx.glGetError()


def expect(ctx, code):
    got = ctx.glGetError()
    assert got == code, f"expected {code:#x}, got {got:#x}; log: {ctx.error_log[-1:]}"
    assert ctx.glGetError() == E.GL_NO_ERROR


def use_program(ctx, vs: str, fs: str) -> int:
    """A program of a vertex and a fragment shader, linked and made current."""
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    return prog


def link_and_use(ctx, *shaders) -> int:
    """A program of these shader objects, linked (asserted, with its log) and made current."""
    prog = ctx.glCreateProgram()
    for sh in shaders:
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    return prog


def compile_source(ctx, kind, src: str):
    """A shader object of GLSL ``src``, compiled: (name, compile status, info log)."""
    sh = ctx.glCreateShader(kind)
    ctx.glShaderSource(sh, 1, [src])
    ctx.glCompileShader(sh)
    return sh, bool(ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0]), ctx.glGetShaderInfoLog(sh)


def link_sources(ctx, stages) -> int:
    """A program of (shader kind, GLSL source) pairs, each compiled and the program
    linked (both asserted, with their logs), attribute ``p`` at location 0, made current."""
    prog = ctx.glCreateProgram()
    for kind, src in stages:
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    return prog
