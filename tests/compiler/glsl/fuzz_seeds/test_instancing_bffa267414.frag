#version 300 es
precision highp float;
in vec4 v;
out vec4 o;
void main() { o = v; }