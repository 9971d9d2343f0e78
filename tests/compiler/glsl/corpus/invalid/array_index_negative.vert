// EXPECT: 0:4(5): error: array index must be >= 0
void main() {
    float a[2];
    a[-1] = 1.0;
}
