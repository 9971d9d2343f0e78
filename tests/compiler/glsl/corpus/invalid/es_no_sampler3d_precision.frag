// EXPECT: 0:4(19): error: No precision specified in this scope for type `sampler3D'
#version 300 es
precision mediump float;
uniform sampler3D vol;
out vec4 c;
void main() {}
