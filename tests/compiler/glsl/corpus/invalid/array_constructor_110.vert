// EXPECT: 0:4(9): error: array constructors forbidden in GLSL 1.10 (GLSL 1.20 or GLSL ES 3.00 required)
void main() {
    float a[2];
    a = float[2](1.0, 2.0);
}
