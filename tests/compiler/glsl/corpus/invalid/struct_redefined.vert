// EXPECT: 0:3(1): error: struct `S' previously defined
struct S { float a; };
struct S { int b; };
void main() {}
