// EXPECT: 0:4(5): error: non-lvalue in assignment
void main() {
    vec4 v;
    v.xx = vec2(1.0);
}
