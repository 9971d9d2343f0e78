// EXPECT: 0:3(1): preprocessor error: #pragma STDGL invariant(all) cannot be used in a fragment shader
#version 300 es
#pragma STDGL invariant(all)
precision highp float;
out vec4 colour;
void main() { colour = vec4(1.0); }
