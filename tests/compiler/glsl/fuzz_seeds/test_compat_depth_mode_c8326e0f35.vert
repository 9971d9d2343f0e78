#version 130
in vec2 pos; in vec4 col;
out vec4 user; noperspective out vec4 np_;
void main() { gl_Position = vec4(pos, 0.0, 1.0); user = col; np_ = col; gl_FrontColor = col; }