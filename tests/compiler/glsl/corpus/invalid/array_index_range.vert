// EXPECT: 0:4(5): error: array index must be < 2
void main() {
    float a[2];
    a[2] = 1.0;
}
