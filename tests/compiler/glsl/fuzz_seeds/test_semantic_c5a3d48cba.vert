#version 130
uniform int k;
void main() { vec4 v = vec4(1.0); v[k] = 2.0; mat3 m; m[1][2] = v[0]; gl_Position = v; }
