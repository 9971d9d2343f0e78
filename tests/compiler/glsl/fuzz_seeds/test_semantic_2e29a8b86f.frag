#version 330
layout(location = 2) out vec4 c;
flat in ivec2 i;
centroid in vec3 n;
invariant out float x;
uniform sampler2D s;
void main() {}
