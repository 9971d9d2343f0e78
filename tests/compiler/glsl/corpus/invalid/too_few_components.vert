// EXPECT: 0:3(14): error: too few components to construct `vec4'
void main() {
    vec4 v = vec4(1.0, 2.0);
}
