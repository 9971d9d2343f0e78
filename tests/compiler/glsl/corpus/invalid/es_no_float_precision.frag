// EXPECT: 0:3(14): error: No precision specified in this scope for type `vec2'
#version 100
varying vec2 uv;
void main() {}
