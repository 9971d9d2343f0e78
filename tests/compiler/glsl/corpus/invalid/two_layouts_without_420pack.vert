// EXPECT: 0:4(1): error: multiple layout qualifiers in one declaration require GLSL 4.20 or GL_ARB_shading_language_420pack
#version 330
in vec4 p;
layout(location = 1) layout(location = 3) out vec2 uv;
void main() { uv = p.xy; gl_Position = p; }
