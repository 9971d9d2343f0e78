// EXPECT: 0:3(13): error: operator '%' is reserved in GLSL 1.10
void main() {
    int i = 5 % 2;
}
