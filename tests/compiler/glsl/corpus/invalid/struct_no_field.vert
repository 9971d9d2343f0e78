// EXPECT: 0:5(5): error: structure `S' has no field `b'
struct S { float a; };
void main() {
    S s;
    s.b = 1.0;
}
