// EXPECT: 0:3(5): error: discard may only appear in a fragment shader
void main() {
    discard;
}
