// EXPECT: 0:3(1): error: function `f' redefined
void f() {}
void f() {}
void main() {}
