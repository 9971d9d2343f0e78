// EXPECT: 0:4(5): error: assignment to read-only variable 'c'
void main() {
    const float c = 1.0;
    c = 2.0;
}
