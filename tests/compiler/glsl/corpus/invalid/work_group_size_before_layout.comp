// EXPECT: 0:5(25): error: gl_WorkGroupSize cannot be used before the local size layout is declared
#version 330
#extension GL_ARB_compute_shader : enable
shared uint total;
void main() { uvec3 n = gl_WorkGroupSize; total = n.x; }
layout(local_size_x = 8) in;
