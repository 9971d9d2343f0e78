// EXPECT: 0:4(7): error: function parameter 'out x' references a non-lvalue
void f(out float x) { x = 1.0; }
void main() {
    f(2.0);
}
