#version 110
void main() { gl_Position = ftransform(); gl_ClipVertex = gl_Vertex * 2.0; }
