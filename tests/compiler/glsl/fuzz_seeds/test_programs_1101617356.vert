#version 310 es
void main() { gl_Position = vec4(0.0); }
