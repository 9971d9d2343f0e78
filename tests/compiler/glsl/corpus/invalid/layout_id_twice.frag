// EXPECT: 0:3(22): error: layout qualifier `location' given twice in one layout()
#version 330
layout(location = 0, location = 1) out vec4 c;
void main() { c = vec4(1.0); }
