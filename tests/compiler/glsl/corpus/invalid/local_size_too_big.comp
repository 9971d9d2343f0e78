// EXPECT: 0:3(1): error: local_size_x (2048) must be between 1 and 1024
#version 430
layout(local_size_x = 2048) in;
void main() {}
