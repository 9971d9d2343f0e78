// EXPECT: 0:3(14): error: interpolation qualifier `flat' cannot be applied to vertex shader inputs
#version 130
flat in vec4 p;
void main() {}
