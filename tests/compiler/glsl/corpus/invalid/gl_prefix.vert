// EXPECT: 0:2(7): error: identifier `gl_Foo' uses reserved `gl_' prefix
float gl_Foo;
void main() {}
