#version 300 es
precision highp float;
in vec3 a;
flat in int k;
out vec4 o;
void main() { o = vec4(a, float(k)); }