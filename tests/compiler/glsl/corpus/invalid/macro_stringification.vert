// EXPECT: 0:3(1): preprocessor error: '#' (stringification) is not allowed in a GLSL macro
#version 120
#define NAME_OF(x) #x
void main() { gl_Position = vec4(0.0); }
