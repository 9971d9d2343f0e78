// EXPECT: 0:3(9): error: array size must be a constant valued expression
uniform int n;
float a[n];
void main() {}
