// EXPECT: 0:5(5): error: `gl_FragColor' undeclared
#version 300 es
precision mediump float;
void main() {
    gl_FragColor = vec4(1.0);
}
