#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer Inp { vec4 a[]; };
layout(std430, binding = 1) buffer Outp { uint counters[8]; uint olds[]; };
shared uint s[64];
void main() {
  uint i = gl_GlobalInvocationID.x, l = gl_LocalInvocationIndex;
  s[l] = l * 2u;
  barrier();
  memoryBarrierShared();
  uint other = s[(l + 1u) % 64u];
  olds[i] = atomicAdd(counters[0], 1u) * 1000u + other;
  atomicMax(counters[1], i);
  atomicMin(counters[2], 100u + i);
  atomicOr(counters[3], 1u << (i % 32u));
  atomicXor(counters[4], i);
  atomicAnd(counters[5], ~(1u << (i % 8u)));
  atomicExchange(counters[6], 7u);
  atomicCompSwap(counters[7], 0u, i + 1u);
}
