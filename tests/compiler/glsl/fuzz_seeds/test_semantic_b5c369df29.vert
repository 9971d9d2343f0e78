#version 330
#define A__B 1
void main() { gl_Position = vec4(A__B); }
