#version 430
out vec4 o;
void main() { o = vec4(0.0); }
