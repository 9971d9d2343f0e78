#version 140
uniform U { layout(row_major) mat2x3 m; float x; };
void main() {}
