#version 120
void main() { float a[2]; float b[2]; float c[2] = true ? a : b; gl_Position = vec4(c[0]); }
