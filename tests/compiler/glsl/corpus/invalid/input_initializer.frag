// EXPECT: 0:3(10): error: cannot initialize fragment shader input
#version 130
in float x = 1.0;
void main() {}
