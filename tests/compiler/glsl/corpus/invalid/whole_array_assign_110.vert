// EXPECT: 0:5(5): error: whole array assignment forbidden in GLSL 1.10
void main() {
    float a[2];
    float b[2];
    a = b;
}
