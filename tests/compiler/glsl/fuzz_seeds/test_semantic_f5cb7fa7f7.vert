#version 120
void main() { mat3 m = mat3(mat4(1.0)); mat2 n = mat2(vec2(1.0), 2.0, 3.0); vec4 v = vec4(n); gl_Position = vec4(m[0], 1.0) + v; }
