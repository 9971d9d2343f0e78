#version 300 es
    precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }