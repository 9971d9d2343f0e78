#version 430
layout(local_size_x = 2) in;
layout(std430, binding = 0) buffer B { uint x[]; };
void main() { x[gl_GlobalInvocationID.x] = gl_WorkGroupID.y; }
