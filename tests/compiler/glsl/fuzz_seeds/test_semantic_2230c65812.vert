#version 120
uniform float u;
void main() { gl_Position = vec4(u * 2); }
