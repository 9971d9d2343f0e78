// EXPECT: 0:4(17): error: unsigned integer literals require GLSL 1.30 or GLSL ES 3.00
#version 120
void main() {
    int i = int(1u);
}
