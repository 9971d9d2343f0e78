#version 330
in mat3 m;
in float arr[3];
in vec2 pair[2];
out vec4 o;
void main() { o = vec4(m[0], arr[1] + pair[1].x); }