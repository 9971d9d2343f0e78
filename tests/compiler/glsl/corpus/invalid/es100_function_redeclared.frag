// EXPECT: 0:5(1): error: function `shade' redeclared
#version 100
precision mediump float;
vec4 shade(float k);
vec4 shade(float k);
vec4 shade(float k) { return vec4(k); }
void main() { gl_FragColor = shade(0.5); }
