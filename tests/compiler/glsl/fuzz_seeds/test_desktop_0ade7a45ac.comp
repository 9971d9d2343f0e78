#version 430
layout(local_size_x = 1) in;
layout(binding = 2, offset = 4) uniform atomic_uint a;
layout(binding = 2) uniform atomic_uint b[2];
layout(binding = 0) uniform atomic_uint c;
void main() { atomicCounterIncrement(a); atomicCounterIncrement(b[1]); atomicCounterIncrement(c); }
