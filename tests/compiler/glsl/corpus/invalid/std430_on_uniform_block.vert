// EXPECT: 0:3(1): error: std430 storage block layout qualifier is supported only for shader storage blocks
#version 430
layout(std430) uniform B { float x; };
void main() {}
