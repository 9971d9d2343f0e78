#version 120
uniform float w[];
void main() { gl_Position = vec4(w[1] + w[4]); }
