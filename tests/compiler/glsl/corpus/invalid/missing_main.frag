// EXPECT: error: fragment shader lacks `main'
void f() {}
