#version 400
centroid in vec2 a;
sample in float s;
noperspective in float n;
out vec4 o;
void main() { o = vec4(a, s, n); }