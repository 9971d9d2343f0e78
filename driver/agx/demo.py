"""``shimgl demo``: render a textured, lit, depth-tested cube through the whole stack
(GL front end -> pipe -> driver.agx -> uapi seam -> kernel -> GPU model) and save a PNG.

``register(subparsers)`` is the ``shimgl.commands`` entry point (``demo =
driver.agx.demo:register``); ``render(size, angle)`` returns the image."""

from __future__ import annotations

import argparse

import numpy as np

__all__ = ["register", "render", "cube_vertices"]

VS = """#version 300 es
in vec3 pos; in vec3 nrm; in vec2 uv;
uniform mat4 mvp; uniform mat4 rot;
out vec2 v_uv; out float v_light;
void main() {
    gl_Position = mvp * vec4(pos, 1.0);
    v_uv = uv;
    v_light = max(dot((rot * vec4(nrm, 0.0)).xyz, normalize(vec3(0.3, 0.5, 1.0))), 0.0) * 0.8 + 0.2;
}"""
FS = """#version 300 es
precision highp float;
uniform sampler2D tex;
in vec2 v_uv; in float v_light; out vec4 color;
void main() { color = vec4(texture(tex, v_uv).rgb * v_light, 1.0); }"""


def cube_vertices() -> np.ndarray:
    """36 vertices of a unit cube: position, normal, texture coordinates (8 floats each)."""
    rows = []
    quad = ((-1, -1), (1, -1), (1, 1), (-1, -1), (1, 1), (-1, 1))
    for axis in range(3):
        for sign in (-1.0, 1.0):
            n = np.zeros(3)
            n[axis] = sign
            u, v = np.roll(np.eye(3), 1, 0)[axis], np.roll(np.eye(3), 2, 0)[axis]
            for a, b in quad:
                rows.append([*(n + a * u + b * v), *n, (a + 1) / 2, (b + 1) / 2])
    return np.array(rows, np.float32)


def _matrices(angle: float, aspect: float) -> tuple[np.ndarray, np.ndarray]:
    f, near, far = 1 / np.tan(np.radians(30)), 1.0, 10.0
    proj = np.array([[f / aspect, 0, 0, 0], [0, f, 0, 0],
                     [0, 0, (far + near) / (near - far), 2 * far * near / (near - far)], [0, 0, -1, 0]])
    c, s = np.cos(angle), np.sin(angle)
    rot = np.array([[c, 0, s, 0], [0, 1, 0, 0], [-s, 0, c, 0], [0, 0, 0, 1]]) @ \
        np.array([[1, 0, 0, 0], [0, np.cos(0.4), -np.sin(0.4), 0], [0, np.sin(0.4), np.cos(0.4), 0], [0, 0, 0, 1]])
    model = np.eye(4)
    model[2, 3] = -5
    return (proj @ model @ rot).astype(np.float32), rot.astype(np.float32)


def render(size: int = 256, angle: float = 0.6, api: str = "gles3"):
    """The cube as a driver.Context after drawing (read_pixels / save_png on it)."""
    from driver.agx.face import Context
    ctx = Context(api=api, width=size, height=size)
    prog = ctx.glCreateProgram()
    for kind, src in ((ctx.GL_VERTEX_SHADER, VS), (ctx.GL_FRAGMENT_SHADER, FS)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    data = cube_vertices()
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data, ctx.GL_STATIC_DRAW)
    for name, n, first in (("pos", 3, 0), ("nrm", 3, 3), ("uv", 2, 6)):
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, ctx.GL_FLOAT, False, 32, 4 * first)
        ctx.glEnableVertexAttribArray(loc)
    checker = np.indices((8, 8)).sum(0) % 2
    texels = np.stack([60 + 180 * checker, 200 - 120 * checker, np.full((8, 8), 90), np.full((8, 8), 255)], -1)
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, ctx.glGenTextures(1)[0])
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 8, 8, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE,
                     texels.astype(np.uint8))
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MIN_FILTER, ctx.GL_NEAREST)
    ctx.glTexParameteri(ctx.GL_TEXTURE_2D, ctx.GL_TEXTURE_MAG_FILTER, ctx.GL_NEAREST)
    mvp, rot = _matrices(angle, 1.0)
    ctx.glUniformMatrix4fv(ctx.glGetUniformLocation(prog, "mvp"), 1, False, mvp.T.reshape(-1))
    ctx.glUniformMatrix4fv(ctx.glGetUniformLocation(prog, "rot"), 1, False, rot.T.reshape(-1))
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glClearColor(0.05, 0.05, 0.1, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT | ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 36)
    return ctx


def register(subparsers) -> None:
    p = subparsers.add_parser("demo", help="render a textured cube through the whole stack to a PNG")
    p.add_argument("--out", default="shimgl-demo.png", help="PNG file to write")
    p.add_argument("--size", type=int, default=256, help="width and height in pixels")
    p.add_argument("--angle", type=float, default=0.6, help="rotation about the vertical axis (radians)")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    ctx = render(args.size, args.angle)
    ctx.save_png(args.out)
    print(f"wrote {args.out} ({args.size}x{args.size}) on {ctx.screen.caps.name}")
    return 0
