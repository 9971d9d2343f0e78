void main() { float a, b; a = (b = 1.0, b + 1.0); gl_Position = vec4(a); }
