#version 430
in vec4 p;
void main() { gl_Position = p; }
