#version 300 es
    precision highp float; out vec4 color; void main(){ color = vec4(0.0, 1.0, 0.0, 1.0); }