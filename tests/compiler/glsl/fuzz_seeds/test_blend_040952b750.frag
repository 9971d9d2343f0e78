#version 110
varying vec4 c;
void main() { gl_FragData[1] = c; }
