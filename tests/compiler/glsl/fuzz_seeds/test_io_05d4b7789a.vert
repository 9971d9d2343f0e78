#version 410
in vec4 p; layout(location = 5) out vec2 byloc; out vec3 n; flat out int id; out float unused;
void main() { gl_Position = p; byloc = p.xy; n = p.xyz; id = 1; unused = 0.0; }