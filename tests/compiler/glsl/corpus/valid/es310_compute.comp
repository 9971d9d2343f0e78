#version 310 es
layout(local_size_x = 64, local_size_y = 1) in;
layout(std430, binding = 0) buffer Input { float data[]; } inbuf;
layout(std430, binding = 1) buffer Output { uint count; float result[]; };
layout(binding = 0, offset = 0) uniform atomic_uint counter;
layout(binding = 2, rgba8) uniform readonly highp image2D srcImage;
layout(binding = 3) writeonly uniform highp image2D dstImage;
shared float tile[64];
float[2][3] grid;

void main() {
    uint i = gl_GlobalInvocationID.x;
    tile[gl_LocalInvocationIndex] = inbuf.data[i];
    memoryBarrierShared();
    barrier();
    float sum = 0.0;
    for (uint k = 0u; k < gl_WorkGroupSize.x; ++k) {
        sum += tile[k];
    }
    result[i] = sum;
    atomicAdd(count, 1u);
    atomicCounterIncrement(counter);
    ivec2 p = ivec2(i % 8u, i / 8u);
    vec4 texel = imageLoad(srcImage, p);
    imageStore(dstImage, p, texel * float(bitCount(i)) + vec4(findMSB(i)));
    grid[1][2] = float(grid.length() + grid[0].length());
    groupMemoryBarrier();
}
