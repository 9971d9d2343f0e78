// EXPECT: 0:4(5): error: assignment to read-only variable 'u'
uniform float u;
void main() {
    u = 1.0;
}
