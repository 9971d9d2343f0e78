// EXPECT: 0:3(13): error: initializer of const variable `c' must be a constant expression
uniform float u;
const float c = u;
void main() {}
