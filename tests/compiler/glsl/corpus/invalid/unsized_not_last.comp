// EXPECT: 0:4(18): error: unsized array `a' definition: only last member of a shader storage block can be defined as unsized array
#version 430
layout(local_size_x = 1) in;
buffer B { float a[]; float b; };
void main() {}
