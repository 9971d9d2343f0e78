// EXPECT: 0:3(8): error: unrecognized layout identifier `foo'
#version 330
layout(foo = 1) out vec4 c;
void main() {}
