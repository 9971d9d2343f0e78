// EXPECT: 0:4(11): error: illegal use of reserved word `uimage3D'
#version 130
void main() {
    float uimage3D = 1.0;
    gl_FragColor = vec4(uimage3D);
}
