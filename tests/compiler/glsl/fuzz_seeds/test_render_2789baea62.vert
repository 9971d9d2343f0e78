#version 300 es
    in vec2 pos; uniform mat4 m; uniform vec2 shift;
    void main(){ gl_Position = m * vec4(pos + shift, 0.0, 1.0); }