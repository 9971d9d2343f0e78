// EXPECT: 0:4(7): error: array index must be integer type
void main() {
    float a[2];
    a[1.0] = 1.0;
}
