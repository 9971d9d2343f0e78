void main() { vec4 v = vec4(1.0, 2.0, 3.0, 4.0); vec2 s = v.wx; }
