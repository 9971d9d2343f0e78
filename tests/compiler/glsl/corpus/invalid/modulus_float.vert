// EXPECT: 0:4(15): error: operands to % must be integral
#version 130
void main() {
    float f = 5.0 % 2.0;
}
