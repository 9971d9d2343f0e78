#version 420
layout(depth_greater) out float gl_FragDepth;
void main() { gl_FragDepth = 1.0; }
