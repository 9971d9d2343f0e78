#version 140
void main() { gl_FragColor = gl_Color; }
