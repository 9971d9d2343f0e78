// EXPECT: 0:2(1): error: main() must return void
int main() { return 0; }
