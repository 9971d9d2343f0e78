// EXPECT: 0:2(1): error: main() must not take any parameters
void main(int x) {}
