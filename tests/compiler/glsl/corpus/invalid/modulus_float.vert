// EXPECT: 0:4(15): error: LHS of operator % must be an integer
#version 130
void main() {
    float f = 5.0 % 2.0;
}
