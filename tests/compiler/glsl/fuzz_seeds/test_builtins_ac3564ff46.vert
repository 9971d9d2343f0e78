#version 130
out float gl_ClipDistance[4];
void main() { gl_ClipDistance[3] = 1.0; gl_Position = vec4(0.0); }
