#version 430
in vec4 v; out vec4 o;
void main() { o = vec4(dFdx(v.x), dFdy(v.y), fwidth(v.z), 0.0); }