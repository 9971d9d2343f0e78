// EXPECT: 0:3(14): error: LHS of `&&' must be scalar boolean
void main() {
    bool b = 1 && true;
}
