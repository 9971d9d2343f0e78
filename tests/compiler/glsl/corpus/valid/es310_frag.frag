#version 310 es
precision mediump float;
uniform highp sampler2DMS ms;
uniform sampler2D tex;
in vec2 uv;
out vec4 color;
void main() {
    vec4 g = textureGather(tex, uv, 1) + textureGatherOffset(tex, uv, ivec2(1, 0));
    color = texelFetch(ms, ivec2(uv), 0) + g;
    int e;
    color.xy += vec2(frexp(color.z, e), ldexp(1.0, e));
    highp uint carry;
    uint s = uaddCarry(1u, 2u, carry);
    color.w = float(s + carry) + float(bitfieldExtract(7, 1, 2));
    color = mix(color, vec4(0.0), bvec4(true, false, true, false));
    color += unpackUnorm4x8(packSnorm4x8(color));
}
