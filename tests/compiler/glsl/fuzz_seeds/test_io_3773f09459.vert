#version 330
layout(location = 0) in vec4 pos; layout(location = 1) in vec4 col; layout(location = 2) in vec2 sh;
layout(location = 3) in ivec2 ids; layout(location = 4) in vec3 inst;
out vec4 c; out vec2 s; flat out ivec2 i; out vec3 k;
void main() { gl_Position = pos; c = col; s = sh; i = ids; k = inst; }