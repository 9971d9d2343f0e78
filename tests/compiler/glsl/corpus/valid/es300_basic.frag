#version 300 es
precision highp float;
precision mediump sampler2DArray;
uniform sampler2D tex;
uniform highp sampler3D vol;
uniform sampler2DArray layers;
uniform highp usampler2D ids;
uniform mediump sampler2DShadow shadow;
flat in uint v_id;
in vec3 v_pos;
layout(location = 0) out vec4 color;
layout(location = 1) out uvec4 id_out;

void main() {
    ivec2 size = textureSize(tex, 0);
    vec4 a = texture(tex, v_pos.xy) + textureLod(vol, v_pos, 0.0);
    a += texelFetch(tex, ivec2(v_pos.xy) % size, 0);
    a += textureOffset(tex, v_pos.xy, ivec2(1, -1));
    a += textureGrad(layers, v_pos, dFdx(v_pos.xy), dFdy(v_pos.xy));
    float s = texture(shadow, v_pos);
    switch (int(v_id) & 3) {
        case 0: a *= 2.0; break;
        case 1:
        case 2: a = a.wzyx; break;
        default: a = vec4(s);
    }
    uint bits = floatBitsToUint(a.x);
    color = vec4(unpackHalf2x16(packHalf2x16(a.xy)), trunc(a.z), round(a.w));
    id_out = texture(ids, v_pos.xy) + uvec4(bits);
    gl_FragDepth = clamp(v_pos.z, 0.0, 1.0);
}
