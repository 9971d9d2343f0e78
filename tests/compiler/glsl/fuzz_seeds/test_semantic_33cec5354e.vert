struct S { float a; };
void main() { float S = 1.0; gl_Position = vec4(S); }
