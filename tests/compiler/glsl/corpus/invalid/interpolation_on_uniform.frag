// EXPECT: 0:3(20): error: interpolation qualifier `flat' can only be applied to shader inputs or outputs.
#version 130
flat uniform float u;
void main() {}
