// EXPECT: 0:3(13): error: operator '%' is reserved in GLSL 1.10 (GLSL 1.30 or GLSL ES 3.00 required)
void main() {
    int i = 5 % 2;
}
