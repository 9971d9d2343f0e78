// EXPECT: 0:2(13): error: `return' with wrong type vec2, in function `f' returning float
float f() { return vec2(1.0); }
void main() {}
