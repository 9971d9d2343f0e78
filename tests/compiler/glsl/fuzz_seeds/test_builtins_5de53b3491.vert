float sin(float x) { return x; }
void main() { gl_Position = vec4(sin(1.0)); }
