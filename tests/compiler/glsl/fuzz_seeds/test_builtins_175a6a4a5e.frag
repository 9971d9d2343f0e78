#version 100
#extension GL_EXT_shader_texture_lod : enable
precision mediump float;
uniform sampler2D s;
void main() { gl_FragColor = texture2DLodEXT(s, vec2(0.0), 1.0); }
