#version 330
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); gl_ClipDistance[0] = pos.x; gl_PointSize = 4.0; }