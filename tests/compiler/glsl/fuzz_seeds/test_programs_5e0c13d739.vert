#version 430
layout(std140, binding = 2) uniform Params { vec3 a; float b; mat3 m; } params;
in vec4 p;
void main() { gl_Position = p + vec4(params.a, params.b) + vec4(params.m[0], 0.0); }
