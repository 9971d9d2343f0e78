#version 330
in vec4 c; layout(location = 0) out vec4 a; layout(location = 2) out vec4 b;
void main() { a = c; b = c * 0.5; }