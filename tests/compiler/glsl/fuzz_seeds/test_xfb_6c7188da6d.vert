#version 300 es
in vec4 p;
out vec3 a;
flat out int k;
void main() { gl_Position = p * 2.0; a = p.zyx + 1.0; k = gl_VertexID * 10 + gl_InstanceID; }