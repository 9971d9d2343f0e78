// EXPECT: 0:3(39): error: binding layout qualifier requires GLSL 4.20, GLSL ES 3.10 or GL_ARB_shading_language_420pack
#version 330
layout(binding = 0) uniform sampler2D s;
void main() {}
