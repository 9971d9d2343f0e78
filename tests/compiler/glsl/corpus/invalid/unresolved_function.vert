// EXPECT: 0:3(34): error: unresolved reference to function `f'
float f(float x);
void main() { gl_Position = vec4(f(1.0)); }
