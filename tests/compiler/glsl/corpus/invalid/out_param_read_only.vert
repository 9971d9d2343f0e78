// EXPECT: 0:5(7): error: function parameter 'out x' references the read-only variable 'u'
void f(out float x) { x = 1.0; }
uniform float u;
void main() {
    f(u);
}
