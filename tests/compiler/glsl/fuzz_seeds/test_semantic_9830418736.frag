#version 150
layout(origin_upper_left) in vec4 gl_FragCoord;
out vec4 c;
void main() { c = gl_FragCoord; }
