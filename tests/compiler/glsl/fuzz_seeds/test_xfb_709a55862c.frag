#version 330
in vec4 v;
out vec4 o;
void main() { o = v; }