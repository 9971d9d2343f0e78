// EXPECT: 0:3(1): error: No precision specified in this scope for type `float'
#version 100
float half_of(mediump float x) { return x * 0.5; }
void main() { gl_FragColor = vec4(half_of(1.0)); }
