#version 100
precision mediump float;
highp float k(float x);
highp float k(float x) { return x; }
void main() { gl_FragColor = vec4(k(1.0)); }
