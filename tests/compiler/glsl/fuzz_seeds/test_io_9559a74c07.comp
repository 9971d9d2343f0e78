#version 430
layout(std140, binding = 1) uniform L { vec4 c; } ls[3];
layout(std430, binding = 4) buffer O { float v[]; } outs[2];
layout(local_size_x = 1) in;
void main() { outs[1].v[2] = ls[2].c.y + ls[0].c.x + float(outs[0].v.length()); }