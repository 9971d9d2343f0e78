// EXPECT: 0:3(13): error: function parameters may only have storage, precision and memory qualifiers
#version 130
float twice(centroid in float x) { return 2.0 * x; }
void main() { gl_FragColor = vec4(twice(1.0)); }
