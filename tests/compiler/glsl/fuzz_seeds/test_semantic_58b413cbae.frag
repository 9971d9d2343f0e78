#version 120
uniform vec2 u = vec2(1, 2);
void main() {}
