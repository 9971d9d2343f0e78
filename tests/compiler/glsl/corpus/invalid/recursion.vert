// EXPECT: error: function `g' has static recursion
float f(float x);
float g(float x) { return f(x); }
float f(float x) { return g(x); }
void main() { gl_Position = vec4(f(1.0)); }
