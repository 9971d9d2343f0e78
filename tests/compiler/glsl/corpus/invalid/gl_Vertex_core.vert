// EXPECT: 0:4(19): error: `gl_Vertex' undeclared
#version 330
void main() {
    gl_Position = gl_Vertex;
}
