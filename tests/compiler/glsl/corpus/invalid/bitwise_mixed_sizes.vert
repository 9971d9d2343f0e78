// EXPECT: 0:4(15): error: operands of `|' cannot be vectors of different sizes
#version 130
void main() {
    ivec2 i = ivec2(1) | ivec3(1);
}
