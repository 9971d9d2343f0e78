// EXPECT: 0:3(14): error: operands to relational operators must be scalar and numeric
void main() {
    bool b = vec2(1.0) < vec2(2.0);
}
