#version 330
in vec4 c;
out vec4 o;
void main() { o = c; }