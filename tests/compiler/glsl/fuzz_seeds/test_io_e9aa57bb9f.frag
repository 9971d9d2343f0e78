#version 330
uniform vec4 big[300]; uniform float f; out vec4 o;
void main() { o = vec4(f); }
