// EXPECT: 0:4(1): error: struct `weight' redeclares function `weight'
#version 100
float weight(float x);
struct weight { float w; };
void main() { gl_Position = vec4(0.0); }
