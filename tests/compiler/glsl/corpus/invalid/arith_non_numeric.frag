// EXPECT: 0:4(15): error: operands to arithmetic operators must be numeric
void main() {
    bool b = true;
    float x = b + 1.0;
}
