#version 140
struct L { vec3 p; float k; };
uniform B { L lights[2]; float s; } b;
void main() { gl_Position = vec4(b.lights[1].p * b.s, 1.0); }
