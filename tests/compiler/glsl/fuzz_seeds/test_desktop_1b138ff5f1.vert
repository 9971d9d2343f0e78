#version 430
layout(location=0) in vec4 p;
void main() { gl_Position = p; }
