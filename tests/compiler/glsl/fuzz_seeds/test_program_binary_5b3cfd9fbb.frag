#version 300 es
precision highp float;
uniform vec4 tint;
in vec2 uv;
layout(location = 0) out vec4 o;
void main() { o = vec4(uv, 0.25, 1.0) * tint; }