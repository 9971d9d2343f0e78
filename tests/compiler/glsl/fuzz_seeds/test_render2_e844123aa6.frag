#version 300 es
    precision highp float; uniform float a; out vec4 color; void main(){ color = vec4(1.0, 1.0, 1.0, a); }