// EXPECT: 0:3(1): error: uniform blocks require GLSL 1.40, GLSL ES 3.00 or GL_ARB_uniform_buffer_object
#version 130
uniform B { float x; };
void main() {}
