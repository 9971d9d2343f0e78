// EXPECT: 0:4(14): error: size mismatch for matrix multiplication
#version 120
void main() {
    vec3 v = mat4(1.0) * vec3(1.0);
}
