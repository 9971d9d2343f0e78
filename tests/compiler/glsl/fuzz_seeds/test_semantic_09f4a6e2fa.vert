#version 130
void main() { uint a = 3u; int b = 2; uint c = a * 2u + uint(b); c >>= 1; c %= 2u; gl_Position = vec4(c); }
