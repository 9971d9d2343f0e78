// EXPECT: 0:3(7): error: arrays of arrays require GLSL 4.30, GLSL ES 3.10 or GL_ARB_arrays_of_arrays
#version 330
float a[2][2];
void main() {}
