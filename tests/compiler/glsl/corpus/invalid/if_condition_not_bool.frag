// EXPECT: 0:3(9): error: if-statement condition must be scalar boolean
void main() {
    if (1.0) {}
}
