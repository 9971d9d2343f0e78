#version 130
in vec4 user; noperspective in vec4 np_;
uniform int which;
void main() { gl_FragColor = which == 0 ? user : which == 1 ? np_ : gl_Color; }