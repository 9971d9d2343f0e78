#version 300 es
in vec2 pos; uniform float z; void main(){ gl_Position = vec4(pos, z, 1.0); }