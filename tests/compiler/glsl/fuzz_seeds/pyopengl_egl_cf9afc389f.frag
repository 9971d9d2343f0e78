#version 300 es
precision mediump float;
uniform vec4 color;
out vec4 frag;
void main() { frag = color; }