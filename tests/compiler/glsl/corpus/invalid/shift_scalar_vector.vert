// EXPECT: 0:4(13): error: if the first operand of << is scalar, the second must be scalar as well
#version 130
void main() {
    int i = 1 << ivec2(1);
}
