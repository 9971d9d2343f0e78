#version 310 es
    layout(local_size_x = 64) in;
    layout(std430, binding = 0) buffer Data { float v[]; };
    uniform float k;
    void main(){ uint i = gl_GlobalInvocationID.x; v[i] = v[i] * k + float(i); }