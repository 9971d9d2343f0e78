#version 330
flat in ivec4 c; out ivec4 o;
void main() { o = c; }
