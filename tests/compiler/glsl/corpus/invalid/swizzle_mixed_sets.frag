// EXPECT: 0:4(14): error: invalid swizzle / mask `xg'
void main() {
    vec4 v = vec4(1.0);
    vec2 f = v.xg;
}
