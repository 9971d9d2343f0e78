#version 300 es
in vec4 p;
out vec3 a;
flat out ivec2 k;
void main() { gl_Position = p * 2.0; a = p.zyx + 1.0; k = ivec2(gl_VertexID, gl_InstanceID); }