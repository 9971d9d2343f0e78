// EXPECT: 0:4(15): error: cannot initialize uniform u in GLSL ES 3.00 (GLSL 1.20 required)
#version 300 es
precision mediump float;
uniform float u = 1.0;
void main() {}
