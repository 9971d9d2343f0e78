#version 150
#extension GL_ARB_shading_language_420pack : enable
#extension GL_ARB_compute_shader : enable
layout(local_size_x = 4) layout(local_size_x = 8, local_size_y = 2) in;
shared uint hits;
void main() { atomicAdd(hits, 1u); memoryBarrierBuffer(); memoryBarrierImage(); }
