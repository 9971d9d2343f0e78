// EXPECT: 0:4(5): error: `f' is not a function
void main() {
    float f;
    f(1.0);
}
