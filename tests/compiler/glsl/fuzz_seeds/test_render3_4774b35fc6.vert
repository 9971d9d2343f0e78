#version 300 es
    in vec2 pos; in vec4 col; in ivec2 k; out vec4 v;
    void main(){ gl_Position = vec4(pos, 0.0, 1.0); v = col * float(k.x + k.y) / 10.0; }