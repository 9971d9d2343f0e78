// EXPECT: 0:4(14): error: vector size mismatch for arithmetic operator
#version 120
void main() {
    vec3 a = vec3(1.0) + vec2(1.0);
}
