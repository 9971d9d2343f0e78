#version 300 es
precision mediump float;
out vec4 o;
void main() { o = vec4(1.0); }
