#version 330
layout(location = 0) in vec2 pos;
out float id;
void main() { gl_Position = vec4(pos, 0.0, 1.0); id = float(gl_VertexID); }