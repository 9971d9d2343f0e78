#version 430
in vec4 a; out vec4 r;
void main() { vec4 i; vec4 f = modf(a, i); r = f + i * 0.0 + (a - i - f); }