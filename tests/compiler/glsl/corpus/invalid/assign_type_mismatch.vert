// EXPECT: 0:4(5): error: value of type vec3 cannot be assigned to variable of type vec4
void main() {
    vec4 v;
    v = vec3(1.0);
}
