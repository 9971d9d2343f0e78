#version 300 es
precision mediump float;
in vec4 v;
uniform sampler2D tex;
out vec4 o;
void main() { o = v * texture(tex, vec2(0.5)); }
