#version 300 es
in vec4 p; out mediump vec3 a; out highp vec2 b;
void main() { gl_Position = p; a = p.xyz; b = p.xy; }
