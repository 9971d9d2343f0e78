#version 430
layout(local_size_x = 4, local_size_y = 1) in;
layout(rgba32f, binding = 0) uniform image2D img;
layout(r32ui, binding = 1) uniform uimage2D counts;
layout(binding = 0, offset = 4) uniform atomic_uint ctr;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 v = imageLoad(img, p);
    imageStore(img, p, v * 2.0 + vec4(imageSize(img), 0.0, 0.0));
    imageAtomicAdd(counts, ivec2(0, 0), 1u);
    uint n = atomicCounterIncrement(ctr);
}