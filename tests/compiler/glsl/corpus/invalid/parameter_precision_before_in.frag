// EXPECT: 0:3(15): error: precision qualifiers must come last
#version 130
float half_of(mediump in float x) { return x * 0.5; }
void main() { gl_FragColor = vec4(half_of(1.0)); }
