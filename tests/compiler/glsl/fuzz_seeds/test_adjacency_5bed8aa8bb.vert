#version 330
layout(location = 0) in vec2 pos;
layout(location = 1) in vec3 col;
flat out vec3 c;
void main() { gl_Position = vec4(pos + vec2(float(gl_InstanceID), 0.0), 0.0, 1.0); c = col; }