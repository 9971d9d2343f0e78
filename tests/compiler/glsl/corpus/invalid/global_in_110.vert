// EXPECT: 0:2(9): error: `in' qualifier in declaration of `a' only valid for function parameters in GLSL 1.10
in vec4 a;
void main() {}
