// EXPECT: 0:4(5): error: assignment to read-only variable 'c'
varying vec4 c;
void main() {
    c = vec4(1.0);
}
