// EXPECT: 0:3(10): error: fragment shader output cannot have type bool
#version 130
out bool b;
void main() {}
