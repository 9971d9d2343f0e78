#version 330
layout(location=0) in vec4 p;
void main() { gl_Position = p; }
