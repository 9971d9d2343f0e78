#version 430
layout(local_size_x = 64) in;
layout(std140, binding = 1) uniform Params { vec4 scale[4]; int pick; } params[3];
layout(std430, binding = 2) buffer Data { uint n; float v[]; } data[2];
uniform int which;
void main() {
  uint i = gl_GlobalInvocationID.x;
  int w = which & 1;
  data[w].v[i] = params[which].scale[i % 4u].y * float(params[(which + 1) % 3].pick)
                 + data[1 - w].v[i] + float(data[w].v.length());
  atomicAdd(data[w].n, 1u);
}