// EXPECT: 0:4(11): error: initializer of type int cannot be assigned to variable of type float
#version 300 es
void main() {
    float x = 1;
}
