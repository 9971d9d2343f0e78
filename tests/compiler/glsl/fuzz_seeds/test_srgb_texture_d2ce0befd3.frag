#version 300 es
precision highp float; uniform sampler2D t; out vec4 o;
void main() { o = texture(t, vec2(0.5)); }