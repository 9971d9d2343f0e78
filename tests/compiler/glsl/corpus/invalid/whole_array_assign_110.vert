// EXPECT: 0:5(5): error: whole array assignment forbidden in GLSL 1.10 (GLSL 1.20 or GLSL ES 3.00 required)
void main() {
    float a[2];
    float b[2];
    a = b;
}
