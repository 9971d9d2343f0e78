// EXPECT: 0:4(7): error: function parameter 'out x' is not an lvalue
void f(out float x) { x = 1.0; }
void main() {
    f(2.0);
}
