#version 300 es
    precision highp float;
    flat in uint lv;
    out vec4 o;
    void main() { o = vec4(float(lv) / 255.0, 0.0, 0.0, 1.0); }