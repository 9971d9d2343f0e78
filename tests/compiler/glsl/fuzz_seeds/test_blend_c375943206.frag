#version 300 es
precision highp float; out vec4 c; void main(){ c = vec4(1.0); }