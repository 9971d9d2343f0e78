#version 100
precision mediump float;
void main() { precision highp float; highp vec2 x = vec2(1.0); gl_FragColor = vec4(x, 0.0, 1.0); }
