#version 120
struct A { float x; };
struct B { A a[2]; };
uniform B b;
void main() { gl_Position = vec4(b.a[1].x); }
