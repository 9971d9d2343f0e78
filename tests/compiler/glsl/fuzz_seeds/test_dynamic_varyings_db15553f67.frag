#version 430
in vec4 arr[3];
flat in int k;
layout(location = 0) out uvec4 o;
void main() { o = floatBitsToUint(arr[k] + arr[(k + 1) % 3]); }