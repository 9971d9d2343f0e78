// EXPECT: 0:3(1): error: function `f' return type doesn't match prototype
float f(int x);
int f(int x) { return x; }
void main() {}
