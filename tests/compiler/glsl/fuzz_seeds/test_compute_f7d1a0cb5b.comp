#version 310 es
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Out { uint total; uint sums[]; };
    shared uint tmp[64];
    void main(){
        uint i = gl_LocalInvocationIndex;
        tmp[i] = gl_GlobalInvocationID.x;
        barrier();
        if (i == 0u) { uint s = 0u; for (int k = 0; k < 64; k++) s += tmp[k]; sums[gl_WorkGroupID.x] = s; }
        atomicAdd(total, 1u);
    }