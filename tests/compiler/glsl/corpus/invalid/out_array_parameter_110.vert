// EXPECT: 0:3(11): error: arrays cannot be `out' parameters in GLSL 1.10
#version 110
void fill(out vec2 pair[2]) { }
void main() { gl_Position = vec4(0.0); }
