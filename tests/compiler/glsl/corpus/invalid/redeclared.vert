// EXPECT: 0:4(9): error: `x' redeclared
void main() {
    float x;
    int x;
}
