#version 430
layout(location=0) in vec4 p;
out vec4 v;
void main() { gl_Position = p; v = p; }
