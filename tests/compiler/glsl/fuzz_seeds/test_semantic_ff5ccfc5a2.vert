void main() { gl_Position = vec4(1.0) + vec4(2.0); }
