// EXPECT: 0:5(15): error: no function with name 'dFdx'
#version 130
in float x;
void main() {
    float d = dFdx(x);
}
