#version 420
void main() { vec3 v[2] = { vec3(1.0), { 0.0, 1.0, 2.0 } }; }
