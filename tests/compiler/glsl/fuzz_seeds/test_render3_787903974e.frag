#version 330
    out vec4 color; void main(){ color = vec4(gl_PointCoord, 0.0, 1.0); }