// EXPECT: 0:3(14): error: operand of `!' must be scalar boolean
void main() {
    bool b = !1;
}
