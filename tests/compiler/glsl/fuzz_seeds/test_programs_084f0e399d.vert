#version 300 es
layout(location = 3) in vec4 pos;
in vec2 uv;
uniform mat4 mvp;
uniform float scale[3];
out vec2 v_uv;
void main() { gl_Position = mvp * pos * scale[2]; v_uv = uv; }
