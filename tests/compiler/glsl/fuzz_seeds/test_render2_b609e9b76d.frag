#version 300 es
    precision highp float;
    layout(location = 0) out vec4 a; layout(location = 1) out vec4 b;
    void main(){ a = vec4(1.0, 0.0, 0.0, 1.0); b = vec4(0.0, 0.25, 1.0, 0.5); }