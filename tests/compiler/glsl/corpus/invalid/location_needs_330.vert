// EXPECT: 0:3(30): error: explicit location for vertex shader inputs requires GLSL 3.30, GLSL ES 3.00 or GL_ARB_explicit_attrib_location
#version 150
layout(location = 0) in vec4 p;
void main() {}
