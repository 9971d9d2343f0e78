#version 300 es
    precision highp float; in vec4 v; out vec4 color; void main(){ color = v; }