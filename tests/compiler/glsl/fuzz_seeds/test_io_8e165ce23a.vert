#version 130
in vec4 p; out float d;
void main() { gl_Position = p; gl_ClipDistance[0] = p.x; gl_ClipDistance[2] = p.y;
              gl_ClipDistance[3] = 5.0; d = 1.0; }