#version 330
flat in vec3 c;
out vec4 o;
void main() { o = vec4(c, 1.0); }