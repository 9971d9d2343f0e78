// EXPECT: 0:4(15): error: operand of `~' must be an integer
#version 130
void main() {
    float f = ~1.0;
}
