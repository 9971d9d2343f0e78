// EXPECT: 0:4(15): error: LHS of operator << must be an integer or integer vector
#version 130
void main() {
    float f = 1.0 << 2;
}
