#version 130
uniform sampler2D tex;
uniform isampler2DArray itex;
uniform usampler2D utex;
in vec2 uv;
flat in int layer;
noperspective in float depth;
centroid in vec3 n;
out vec4 color;

void main() {
    uint bits = uint(layer) << 2u | 1u;
    ivec4 i = texture(itex, vec3(uv, float(layer)));
    uvec4 u = texelFetch(utex, ivec2(uv * 16.0), 0);
    vec4 c = texture(tex, uv, 0.5) + textureProj(tex, vec3(uv, 1.0));
    c += vec4(i) + vec4(u) + vec4(bits);
    switch (layer) {
    case 0:
        c = -c;
        break;
    default:
        c = abs(c);
    }
    color = vec4(sinh(c.x), tanh(c.y), roundEven(c.z), float(isnan(c.w))) + texture2D(tex, uv);
    gl_ClipDistance[0];
}
