#version 400
centroid in vec2 c; sample in vec3 s; in float n; out vec4 o;
void main() { o = vec4(c, s.x, n); }