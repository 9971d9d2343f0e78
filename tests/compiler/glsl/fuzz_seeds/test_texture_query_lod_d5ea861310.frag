#version 400
uniform sampler2D t;
in vec2 uv;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(vec4(textureQueryLod(t, uv), 0.0, 0.0)); }