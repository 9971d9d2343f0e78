#version 310 es
precision mediump float;
layout(location = 0) in vec4 v;
uniform vec4 tint;
out vec4 o;
void main() { o = v * tint; }
