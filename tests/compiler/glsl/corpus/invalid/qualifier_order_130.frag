// EXPECT: 0:3(1): error: interpolation qualifiers must precede storage qualifiers
#version 130
in flat float x;
void main() {}
