// EXPECT: error: compute shader must contain a fixed work group size
#version 430
void main() {}
