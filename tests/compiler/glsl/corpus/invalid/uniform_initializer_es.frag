// EXPECT: 0:4(15): error: uniform initializers are not allowed in GLSL ES 3.00
#version 300 es
precision mediump float;
uniform float u = 1.0;
void main() {}
