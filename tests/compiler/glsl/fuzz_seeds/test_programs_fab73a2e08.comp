#version 430
layout(local_size_x = 8, local_size_y = 2) in;
void main() {}
