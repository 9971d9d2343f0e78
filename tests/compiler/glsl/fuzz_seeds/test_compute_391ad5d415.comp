#version 430
layout(local_size_x = 4) in;
layout(r32ui, binding = 0) uniform uimage2D imgs[2];
void main() {
    int k = int(gl_LocalInvocationID.x) & 1;
    imageAtomicAdd(imgs[k], ivec2(0, 0), 1u);
    imageStore(imgs[k], ivec2(1, 0), uvec4(7u + uint(k)));
}