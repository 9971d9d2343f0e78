// EXPECT: 0:3(31): error: invalid location 8 specified for `c'
#version 330
layout(location = 8) out vec4 c;
void main() {}
