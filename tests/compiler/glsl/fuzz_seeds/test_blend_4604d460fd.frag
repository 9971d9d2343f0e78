#version 330
flat in uvec4 c; out uvec4 o;
void main() { o = c; }
