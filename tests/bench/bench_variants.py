"""Shader variants: the CPU time of making one more variant of a linked stage.

A stage is lowered from its typed AST once (``compiler.lower.lower_stage``) and
each variant key's passes run on a copy of that IR (``LoweredStage.variant``),
as Mesa's ``agx_compile_variant`` runs NIR passes on a clone. Rows: per variant,
the lowering (copy + key passes + I/O lowering, or, on a tree without
``lower_stage``, the whole AST lowering for the key) and the whole front half
(lowering + optimisation); and the one-time lowering. CPU time
(``time.process_time``), the median of ``ROUNDS`` passes over the keys. Run the
file on two trees to compare them: it falls back to the one-pass lowering where
``lower_stage`` does not exist."""

from __future__ import annotations

import statistics
import time

ROUNDS = 5

VS = """#version 150 compatibility
in vec4 pos;
in vec3 normal;
uniform mat4 mvp;
uniform mat3 nm;
uniform vec4 light[4];
out vec3 n;
out vec4 lit;
void main() {
    gl_Position = mvp * pos;
    gl_ClipVertex = pos;
    n = normalize(nm * normal);
    vec4 acc = vec4(0.0);
    for (int i = 0; i < 4; i++)
        acc += max(dot(n, normalize(light[i].xyz - pos.xyz)), 0.0) * vec4(light[i].w);
    lit = acc;
    gl_FrontColor = acc;
    gl_TexCoord[0] = pos * 0.5 + 0.5;
}
"""
FS = """#version 150 compatibility
in vec3 n;
in vec4 lit;
uniform sampler2D tex;
uniform float k;
out vec4 colour;
void main() {
    vec4 t = texture(tex, gl_TexCoord[0].xy);
    colour = mix(t, gl_Color * lit, k) + vec4(n * 0.1, 0.0);
}
"""


def _keys():
    from compiler.ir import ShaderKey
    from compiler.lower import Blend, RenderTarget, VertexAttrib
    blend = Blend("add", "src_alpha", "one_minus_src_alpha", "add", "one", "zero")
    vs = [None, ShaderKey.make(clip_planes=1), ShaderKey.make(flat_shade=True),
          ShaderKey.make(vertex_attribs=(VertexAttrib(0, 0, "ubyte", 4, True),)),
          ShaderKey.make(clip_planes=3, flat_shade=True, attribute_locations={"normal": 3})]
    fs = [None, ShaderKey.make(render_targets=(RenderTarget(blend=blend),)),
          ShaderKey.make(render_targets=(RenderTarget(format="f16"),), alpha_func="greater"),
          ShaderKey.make(two_side=True, flat_shade=True), ShaderKey.make(samples=4, alpha_to_coverage=True),
          ShaderKey.make(render_targets=(RenderTarget(),), logic_op="xor")]
    return {"vertex": (VS, vs), "fragment": (FS, fs)}


def _cpu_ms(fn) -> float:
    t0 = time.process_time()
    fn()
    return (time.process_time() - t0) * 1000


def run() -> list[tuple[str, float, str]]:
    from compiler import compile as C
    from compiler.glsl import parse
    from compiler.ir.passes import lower_io
    import compiler.lower as lower
    rows = []
    new = hasattr(lower, "lower_stage")
    for stage, (src, keys) in _keys().items():
        unit = parse(src, stage)
        once = []
        per_lower, per_front = [], []
        for _ in range(ROUNDS):
            if new:
                holder = {}
                once.append(_cpu_ms(lambda: holder.setdefault("s", lower.lower_stage(unit))))
                lowered = holder["s"]
                per_lower.append(sum(_cpu_ms(lambda: lowered.variant(k)) for k in keys) / len(keys))
                per_front.append(sum(_cpu_ms(lambda: C.front_half_stage(lowered, k)) for k in keys) / len(keys))
            else:
                per_lower.append(sum(_cpu_ms(lambda: lower_io(lower.lower_unit(unit, k)[0])) for k in keys)
                                 / len(keys))
                per_front.append(sum(_cpu_ms(lambda: C.front_half_unit(unit, k)) for k in keys) / len(keys))
        how = "copy + key passes" if new else "one-pass AST lowering"
        rows.append((f"{stage}: lowering per variant ({len(keys)} keys)", statistics.median(per_lower), how))
        rows.append((f"{stage}: front half per variant ({len(keys)} keys)", statistics.median(per_front),
                     "lowering + optimisation"))
        if new:
            rows.append((f"{stage}: lowering once per linked stage", statistics.median(once), "lower_stage"))
    return rows


if __name__ == "__main__":
    for what, ms, note in run():
        print(f"{what:<60} {ms:>10.2f}  {note}")
