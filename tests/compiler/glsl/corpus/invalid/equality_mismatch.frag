// EXPECT: 0:3(14): error: `==':  wrong operand types: no operation `==' exists that takes a left-hand operand of type 'vec3' or a right operand of type 'vec4' (or there is no acceptable conversion)
void main() {
    bool b = vec3(1.0) == vec4(1.0);
}
