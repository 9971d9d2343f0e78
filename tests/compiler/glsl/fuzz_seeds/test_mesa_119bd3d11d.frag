#version 300 es
precision highp float;
in vec4 v_col; out vec4 color;
void main(){ color = v_col * v_col.a + vec4(0.05, 0.0, 0.1, 0.0); }