#version 330
#extension GL_ARB_compute_shader : require
#extension GL_ARB_shader_storage_buffer_object : require
// Compute through extensions on a 3.30 context.
layout(local_size_x = 32) in;
layout(std430) buffer Values { uint total; uint values[]; };
shared uint partial[32];

void main() {
    partial[gl_LocalInvocationID.x] = values[gl_GlobalInvocationID.x];
    memoryBarrierShared();
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        uint sum = 0u;
        for (int i = 0; i < 32; i++)
            sum += partial[i];
        atomicAdd(total, sum);
    }
    memoryBarrierBuffer();
}
