// EXPECT: 0:4(18): error: array constructor must have 2 parameters (found 1)
#version 120
void main() {
    float a[2] = float[2](1.0);
}
