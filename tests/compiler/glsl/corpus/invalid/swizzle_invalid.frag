// EXPECT: 0:4(15): error: invalid swizzle / mask `z'
void main() {
    vec2 v = vec2(1.0);
    float f = v.z;
}
