// EXPECT: 0:3(15): error: could not implicitly convert operands to arithmetic operator
void main() {
    float x = 1.0 + 1;
}
