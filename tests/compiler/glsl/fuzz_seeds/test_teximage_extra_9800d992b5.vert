#version 300 es
uniform Blk { vec3 a; float b; mat2 m[2]; } blk;
in vec4 p;
void main() { gl_Position = p + vec4(blk.a, blk.b) + vec4(blk.m[1][0], 0.0, 0.0); }
