#version 310 es
layout(local_size_x = 4) in;
void main() {}
