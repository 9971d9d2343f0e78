#version 430
layout(local_size_x = 1) in;
layout(std430, binding = 3) buffer Data { uint n; float v[]; };
void main() { v[n] = float(v.length()); }
