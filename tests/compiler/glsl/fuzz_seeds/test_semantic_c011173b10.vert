float f(float);
float f(float y) { return y; }
void main() { gl_Position = vec4(f(1.0)); }
