#version 310 es
precision highp float;
in vec2 uv;
layout(location = 0) out highp uvec4 o;
void main() { o = uvec4(gl_HelperInvocation ? 7u : 3u, floatBitsToUint(dFdx(uv.x)), 0u, 0u); }