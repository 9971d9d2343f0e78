#version 300 es
in vec4 pos; in vec4 col; out vec4 v_col;
void main(){ gl_Position = pos; v_col = col; }