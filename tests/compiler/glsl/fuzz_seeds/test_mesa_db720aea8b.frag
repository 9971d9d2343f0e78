#version 300 es
precision highp float; uniform sampler2D t; in vec2 v_uv; in float v_l; out vec4 color;
void main(){ color = vec4(texture(t, v_uv).rgb * v_l, 1.0); }