#version 300 es
    in vec2 pos; in float off; in vec4 col; out vec4 v;
    void main(){ gl_Position = vec4(pos.x * 0.125 - 0.875 + off, pos.y, 0.0, 1.0); v = col; }