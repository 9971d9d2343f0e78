// EXPECT: 0:4(13): error: operands of `&' must have the same base type
#version 130
void main() {
    int i = 1 & 1u;
}
