// EXPECT: 0:2(13): error: `return' with no value, in function f returning non-void
float f() { return; }
void main() {}
