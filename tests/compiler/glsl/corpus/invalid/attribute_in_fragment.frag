// EXPECT: 0:2(16): error: `attribute' variables may not be declared in the fragment shader
attribute vec4 a;
void main() {}
