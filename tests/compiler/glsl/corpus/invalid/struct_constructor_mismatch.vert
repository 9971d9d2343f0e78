// EXPECT: 0:4(11): error: parameter type mismatch in constructor for `S.b' (vec2 vs int)
struct S { float a; int b; };
void main() {
    S s = S(1.0, vec2(1.0));
}
