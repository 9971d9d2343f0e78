// EXPECT: 0:3(14): error: too many parameters to `vec2' constructor
void main() {
    vec2 v = vec2(1.0, 2.0, 3.0);
}
