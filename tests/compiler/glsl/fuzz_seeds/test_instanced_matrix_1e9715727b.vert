#version 330
in vec4 p;
in mat4 xf;
out vec4 c;
void main() { gl_Position = xf * p; c = vec4(float(gl_InstanceID) / 4.0, 0.5, 0.25, 1.0); }