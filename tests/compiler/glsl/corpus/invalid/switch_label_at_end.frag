// EXPECT: 0:7(5): error: a case or default label at the end of a switch statement must be followed by a statement
#version 130
uniform int mode;
void main() {
    switch (mode) {
    case 1: gl_FragColor = vec4(1.0); break;
    default:
    }
}
