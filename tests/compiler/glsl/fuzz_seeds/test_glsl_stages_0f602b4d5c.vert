#version 330
layout(location = 0) in vec4 pos;
out mediump vec3 c;
out vec2 t;
void main() { gl_Position = pos; c = pos.zyx; t = pos.xy * 2.0; }