// EXPECT: 0:4(1): error: A shader cannot redefine or overload built-in function `sin' in GLSL ES 3.00
#version 300 es
precision mediump float;
float sin(int x) { return 1.0; }
void main() {}
