#version 300 es
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
out vec4 v;
void main() { gl_Position = pos; v = col; }
