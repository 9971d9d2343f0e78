// EXPECT: 0:3(1): error: default precision statements apply only to float, int, and opaque types
#version 100
precision mediump vec4;
void main() {}
