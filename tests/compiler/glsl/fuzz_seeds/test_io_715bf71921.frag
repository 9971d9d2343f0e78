#version 410
layout(location = 5) in vec2 renamed; in vec3 n; flat in int id; in vec4 missing; out vec4 o;
void main() { o = vec4(renamed, n.x, float(id)) + missing; }