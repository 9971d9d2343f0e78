#version 300 es
precision highp float; in vec4 col; out vec4 color;
void main() { color = col; }