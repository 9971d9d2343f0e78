// EXPECT: 0:3(15): error: second and third operands of ?: operator must have matching types
void main() {
    float f = true ? 1.0 : vec2(1.0);
}
