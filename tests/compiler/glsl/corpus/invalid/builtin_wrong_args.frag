// EXPECT: 0:3(15): error: no matching function for call to `dot(float, vec2)'; candidates are:
void main() {
    float x = dot(1.0, vec2(1.0));
}
