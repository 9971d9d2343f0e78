#version 300 es
    precision highp float;
    struct S { float a; vec3 b; };
    uniform S s; uniform float w[3];
    layout(std140) uniform Block { vec4 tint; float gain; };
    out vec4 color;
    void main(){ color = vec4(s.b * s.a, w[0] + w[1] + w[2]) * tint * gain; }