#version 310 es
    layout(local_size_x = 3) in;
    layout(std430, binding = 0) buffer V { vec2 p[]; };
    void main(){ uint i = gl_GlobalInvocationID.x;
                 p[i] = vec2(i == 1u ? 3.0 : -1.0, i == 2u ? 3.0 : -1.0); }