#version 430
layout(local_size_x = 4) in;
void main() {
  int a[gl_MaxDrawBuffers];
  ivec3 s = gl_MaxComputeWorkGroupSize;
}
