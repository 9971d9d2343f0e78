// EXPECT: 0:4(5): error: no matching function for call to `f(vec2)'; candidates are:
float f(float x) { return x; }
void main() {
    f(vec2(1.0));
}
