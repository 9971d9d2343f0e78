#version 430
layout(local_size_x = 16) in;
layout(std430, binding = 2) buffer Counters { uint total; int lo; int hi; uint bits; uint swapped; uint old[16]; };
shared uint sh;
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i == 0u) sh = 0u;
    barrier();
    old[i] = atomicAdd(total, i + 1u);
    atomicMin(lo, int(i) - 5);
    atomicMax(hi, int(i) * 3);
    atomicOr(bits, 1u << i);
    atomicCompSwap(swapped, 0u, 100u + i);
    atomicAdd(sh, 2u);
    memoryBarrierShared();
    barrier();
    if (i == 0u) atomicExchange(total, total + sh * 1000u);
}