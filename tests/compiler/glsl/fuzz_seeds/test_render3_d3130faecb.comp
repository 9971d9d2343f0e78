#version 310 es
    layout(local_size_x = 32) in;
    layout(binding = 0, offset = 4) uniform atomic_uint hits;
    void main(){ if (gl_GlobalInvocationID.x % 3u == 0u) atomicCounterIncrement(hits); }