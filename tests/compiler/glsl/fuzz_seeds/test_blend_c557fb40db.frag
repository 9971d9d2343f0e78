#version 400
in vec4 c; out vec4 o;
void main() { o = c; gl_SampleMask[0] = 0x5; gl_FragDepth = c.x * 0.5; }