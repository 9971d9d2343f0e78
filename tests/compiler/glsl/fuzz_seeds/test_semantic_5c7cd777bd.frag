#version 300 es
precision mediump float;
in vec2 uv;
in highp float h;
uniform sampler2D s;
out vec4 c;
void main() { c = vec4(uv, h, 1.0); }
