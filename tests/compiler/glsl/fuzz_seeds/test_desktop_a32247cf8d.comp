#version 430
layout(local_size_x = 4) in;
layout(std430, binding = 3) buffer Data { float a[3]; vec3 v; mat2 m; } data;
layout(std140, binding = 1) uniform Params { vec4 scale; } params;
uniform int count;
void main() { data.a[0] = data.v.x * params.scale.x + float(count) + data.m[0][0]; }
