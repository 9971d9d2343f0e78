#version 130
void main() { int i = 0; while (bool b = i < 3) { i++; } gl_Position = vec4(i); }
