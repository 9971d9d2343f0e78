#version 330
void main() { gl_Position = vec4(0); }