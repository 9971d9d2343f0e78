#version 330
in vec3 v;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(vec4(gl_PointCoord, v.z, 0.0)); }