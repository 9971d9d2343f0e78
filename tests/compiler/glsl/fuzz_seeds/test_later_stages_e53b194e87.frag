#version 330
out vec4 o;
void main() { o = vec4(1); }