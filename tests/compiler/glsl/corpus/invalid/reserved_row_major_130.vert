// EXPECT: 0:3(5): error: illegal use of reserved word `row_major'
#version 130
int row_major;
void main() { gl_Position = vec4(float(row_major)); }
