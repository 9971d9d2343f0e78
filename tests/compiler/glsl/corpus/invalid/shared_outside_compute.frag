// EXPECT: 0:3(14): error: `shared' variables may only be declared in compute shaders
#version 430
shared float s;
void main() {}
