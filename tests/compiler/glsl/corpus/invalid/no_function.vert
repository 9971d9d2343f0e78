// EXPECT: 0:3(5): error: no function with name 'foo'
void main() {
    foo(1.0);
}
