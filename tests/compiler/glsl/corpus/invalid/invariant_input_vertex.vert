// EXPECT: 0:3(19): error: `invariant' can only be applied to shader outputs (or fragment inputs)
#version 130
invariant in vec4 p;
void main() {}
