#version 130
in vec4 c; out vec4 first; out vec4 second;
void main() { first = c; second = c * 2.0; }
