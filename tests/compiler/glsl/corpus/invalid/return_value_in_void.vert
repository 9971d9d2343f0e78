// EXPECT: 0:3(5): error: `return' with a value, in function `main' returning void
void main() {
    return 1.0;
}
