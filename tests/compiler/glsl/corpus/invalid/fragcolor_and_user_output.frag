// EXPECT: error: fragment shader writes to both a user-defined output and gl_FragColor
#version 130
out vec4 c;
void main() {
    c = vec4(1.0);
    gl_FragColor = vec4(1.0);
}
