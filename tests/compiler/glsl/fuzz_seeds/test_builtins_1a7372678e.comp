#version 430
layout(local_size_x = 4, local_size_y = 2) in;
const uvec3 s = gl_WorkGroupSize;
void main() {}
