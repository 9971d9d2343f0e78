// EXPECT: 0:2(13): error: initializer of const variable `c' must be a constant expression
const float c = sin(1.0);
void main() {}
