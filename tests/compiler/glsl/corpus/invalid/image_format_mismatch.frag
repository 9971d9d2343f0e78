// EXPECT: 0:3(31): error: format qualifier `r32ui' does not match the base data type of the image
#version 420
layout(r32ui) uniform image2D img;
void main() {}
