#version 330
in vec4 p;
out vec4 v;
void main() { gl_Position = p; v = p * 2.0 + float(gl_VertexID); }