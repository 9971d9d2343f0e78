// EXPECT: 0:4(9): error: array constructors forbidden in GLSL 1.10
void main() {
    float a[2];
    a = float[2](1.0, 2.0);
}
