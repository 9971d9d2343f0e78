#version 300 es
in vec4 p;
out vec4 v;
void main() { gl_Position = p; v = p; }