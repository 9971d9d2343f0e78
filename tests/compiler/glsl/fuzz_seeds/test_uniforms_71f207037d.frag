#version 120
struct S { float a; int c; };
uniform float x = 2.5;
uniform vec3 v = vec3(1.0, 2.0, 3.0);
uniform int i[2] = int[2](4, 5);
uniform mat2 m = mat2(1.0, 2.0, 3.0, 4.0);
uniform bool b = true;
uniform S s = S(1.5, 7);
void main() { gl_FragColor = vec4(x) + vec4(v, 1.0) + float(i[1]) + m[0].x + float(b) + s.a + float(s.c); }
