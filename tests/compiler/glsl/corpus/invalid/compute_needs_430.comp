// EXPECT: 0:1(1): error: compute shaders require GLSL 4.30 or GLSL ES 3.10
#version 330
void main() {}
