#version 300 es
    precision highp float; precision highp sampler2DShadow; uniform sampler2DShadow t; in vec2 uv; out vec4 color;
    void main(){ color = vec4(texture(t, vec3(uv, 0.5))); }