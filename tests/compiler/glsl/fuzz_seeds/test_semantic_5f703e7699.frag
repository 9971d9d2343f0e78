#version 150
layout(Origin_Upper_LEFT) in vec4 gl_FragCoord;
out vec4 c;
void main() { c = gl_FragCoord; }
