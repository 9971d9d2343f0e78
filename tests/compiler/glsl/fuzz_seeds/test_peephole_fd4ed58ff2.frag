#version 330 core
in vec4 v_col;
out vec4 o;
void main(){ o = v_col; }
