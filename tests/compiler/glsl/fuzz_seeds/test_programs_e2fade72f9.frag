#version 330
in vec4 v; out vec4 o;
void main() { if (v.x < 0.0) discard; o = vec4(v.x, 1.0 - v.x, 0.25, 1.0); }