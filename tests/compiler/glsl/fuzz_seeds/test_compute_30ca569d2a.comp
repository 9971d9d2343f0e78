#version 430
layout(local_size_x = 16) in;
layout(std430, binding = 0) buffer Out { uint data[]; };
shared uint tmp[16];
void main() {
    uint i = gl_LocalInvocationID.x;
    tmp[i] = i * i + gl_WorkGroupID.x + gl_WorkGroupSize.x;
    barrier();
    data[gl_GlobalInvocationID.x] = tmp[15u - i] + gl_LocalInvocationIndex * 1000u;
}