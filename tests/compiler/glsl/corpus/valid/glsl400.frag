#version 400
uniform sampler2D tex;
uniform samplerCubeArray cubes;
uniform dvec2 precise_offset;
in vec2 uv;
sample in vec3 n;
out vec4 color;

void main() {
    vec4 g = textureGather(tex, uv) + textureGatherOffset(tex, uv, ivec2(1));
    vec4 c = texture(cubes, vec4(n, 0.0));
    double d = precise_offset.x * 2.0lf;
    color = fma(g, c, vec4(float(d))) + vec4(interpolateAtCentroid(n), 1.0);
    color.xy += textureQueryLod(tex, uv) + vec2(gl_SampleID) + gl_SamplePosition;
    uint lo, hi;
    umulExtended(1u, 2u, hi, lo);
    color.z += float(bitfieldReverse(lo) + hi) + float(packUnorm4x8(color));
}
