// EXPECT: 0:3(21): error: loop condition must be scalar boolean
void main() {
    for (int i = 0; i; i++) {}
}
