// EXPECT: 0:2(16): error: vertex shader input / attribute cannot have type bool
attribute bool a;
void main() {}
