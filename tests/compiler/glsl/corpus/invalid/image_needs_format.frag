// EXPECT: 0:3(37): error: image not qualified with `writeonly' must have a format layout qualifier
#version 420
layout(binding = 0) uniform image2D img;
void main() {}
