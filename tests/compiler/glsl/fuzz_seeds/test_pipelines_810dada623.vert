#version 310 es
layout(location = 0) in vec4 p;
layout(location = 0) out vec4 v;
void main() { gl_Position = p; v = p; }
