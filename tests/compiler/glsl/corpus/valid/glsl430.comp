#version 430
#extension GL_ARB_enhanced_layouts : require   // a constant expression in a layout qualifier
const int W = 8;
layout(local_size_x = W * 2, local_size_y = 16) in;
layout(std430, binding = 0) buffer Particles {
    vec4 positions[];
};
layout(std140, binding = 1) uniform Params { float dt; uint count; };
layout(r32ui, binding = 0) uniform uimage2D counts;
shared uint local_count;
shared float scratch[int(sqrt(16.0))];
struct Pair { int a; float b[2]; };

void main() {
    uint id = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 16u;
    if (gl_LocalInvocationIndex == 0u)
        local_count = 0u;
    barrier();
    if (id < count) {
        positions[id].xyz += vec3(dt) * positions[id].w;
        atomicAdd(local_count, 1u);
    }
    memoryBarrierBuffer();
    barrier();
    imageAtomicAdd(counts, ivec2(gl_WorkGroupID.xy), local_count);
    Pair p[2][2];
    p[1][0] = Pair(1, float[2](1.0, 2.0));
    memoryBarrierImage();
}
