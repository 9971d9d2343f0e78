#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos.x * 0.125 - 0.875 + 0.5 * float(gl_InstanceID), pos.y, 0.0, 1.0); }