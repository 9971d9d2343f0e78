#version 430
layout(local_size_x = 1) in;
struct S { vec3 a; float b; };
layout(std140) uniform U { float f; vec3 v; float g[2]; mat3 m; S s; vec2 t; };
layout(std430) buffer B { float f2; vec2 v2; float h[2]; vec3 w; S s2[]; };
void main() {}
