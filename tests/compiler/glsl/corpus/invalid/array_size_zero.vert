// EXPECT: 0:2(9): error: array size must be > 0
float a[0];
void main() {}
