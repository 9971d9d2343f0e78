// EXPECT: 0:6(25): error: no function with name 'dFdx'
#version 100
precision mediump float;
varying float x;
void main() {
    gl_FragColor = vec4(dFdx(x));
}
