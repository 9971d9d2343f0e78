// EXPECT: 0:3(15): error: `y' undeclared
void main() {
    float x = y;
}
