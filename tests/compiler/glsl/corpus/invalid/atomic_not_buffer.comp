// EXPECT: 0:6(5): error: First argument to atomic function must be a buffer or shared variable
#version 430
layout(local_size_x = 1) in;
void main() {
    uint x = 0u;
    atomicAdd(x, 1u);
}
