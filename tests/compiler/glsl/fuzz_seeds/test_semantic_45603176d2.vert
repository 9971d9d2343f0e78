#version 150
struct V { vec3 n; };
out V v;
void main() { v.n = vec3(1.0); gl_Position = vec4(0.0); }
