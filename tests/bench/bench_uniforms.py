"""CPU per draw spent on the default uniform block: a program whose vertex and
fragment stages read a mat4, a mat3, an array of eight vec4 and a float is drawn
``DRAWS`` times with one uniform changed before each draw (the whole stack,
``driver.Context``; flushed once at the end, outside the timing). Rows: CPU per
``glUniform4fv`` + ``glDrawArrays``; and the part of it that builds the uniform
registers' default block from the GL front end's storage (``encode._default_block``:
the storage is already in the layout the shader reads, so one copy of it, plus one
per run of built-in state the shader reads, none here), with the number of copies
per draw. CPU time (``time.process_time``), best of ``ROUNDS``."""

from __future__ import annotations

import time

import numpy as np

DRAWS = 200
ROUNDS = 3

VS = """#version 300 es
layout(location = 0) in vec4 pos;
uniform mat4 mvp;
uniform mat3 nm;
uniform vec4 colours[8];
out vec4 v;
void main() {
    gl_Position = mvp * pos;
    v = vec4(nm * pos.xyz, 1.0) + colours[gl_VertexID % 8];
}
"""
FS = """#version 300 es
precision mediump float;
in vec4 v;
uniform float k;
uniform vec4 colours[8];
out vec4 o;
void main() { o = v * k + colours[3]; }
"""


def run() -> list[tuple[str, float, str]]:
    from driver.agx import encode
    from tests.driver.agx.glhelp import context, program
    ctx = context(32, 32)
    prog = program(ctx, VS, FS)
    data = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), ctx.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, ctx.GL_FLOAT, False, 16, 0)
    ctx.glEnableVertexAttribArray(0)
    loc = {n: ctx.glGetUniformLocation(prog, n) for n in ("mvp", "nm", "colours", "k")}
    ctx.glUniformMatrix4fv(loc["mvp"], 1, False, np.eye(4, dtype=np.float32).ravel().tolist())
    ctx.glUniformMatrix3fv(loc["nm"], 1, False, np.eye(3, dtype=np.float32).ravel().tolist())
    ctx.glUniform4fv(loc["colours"], 8, np.linspace(0, 1, 32, dtype=np.float32).tolist())
    ctx.glUniform1f(loc["k"], 0.5)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)          # compiles the variants
    ctx.glFinish()
    calls = {"n": 0, "s": 0.0, "copies": 0}
    original = encode._default_block

    def timed(c, sh, stage):
        t0 = time.process_time()
        out = original(c, sh, stage)
        calls["s"] += time.process_time() - t0
        calls["n"] += 1
        calls["copies"] += int(bool(sh.info.get("program_block"))) + len(sh.info.get("state_copies", ()))
        return out
    encode._default_block = timed
    best = float("inf")
    try:
        for _ in range(ROUNDS):
            calls.update(n=0, s=0.0, copies=0)
            t0 = time.process_time()
            for i in range(DRAWS):
                ctx.glUniform4f(loc["colours"], i / DRAWS, 0.0, 0.0, 1.0)
                ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
            cpu = time.process_time() - t0
            if cpu < best:
                best, block_s, n, copies = cpu, calls["s"], calls["n"], calls["copies"]
            ctx.glFinish()
    finally:
        encode._default_block = original
    return [("glUniform4f + glDrawArrays, whole stack, per draw", best / DRAWS * 1000, f"{DRAWS} draws"),
            ("  of which the default block per draw (both stages)", block_s / DRAWS * 1000,
             f"{n / DRAWS:.0f} blocks, {copies / max(n, 1):.0f} copies each")]


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<60} {ms:>10.2f}  {note}")
