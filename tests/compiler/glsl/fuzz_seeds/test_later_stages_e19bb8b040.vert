#version 330
uniform vec2 u;
void main() { gl_Position = u.xyxy; }