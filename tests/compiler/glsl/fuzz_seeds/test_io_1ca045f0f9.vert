#version 330
in vec4 a; layout(location = 0) in vec4 b; in mat2 m; in vec2 c;
out vec4 o; void main() { o = a + b + vec4(m[1], c); gl_Position = o; }