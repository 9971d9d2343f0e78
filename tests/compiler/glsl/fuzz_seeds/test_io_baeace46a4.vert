#version 330
layout(location = 0) in vec4 a0;
layout(location = 1) in vec4 a1;
uniform vec4 first;
uniform vec4 many[7];
uniform float last;
out vec4 v;
void main() { gl_Position = a0; v = a1 * first + many[6] * last; }
