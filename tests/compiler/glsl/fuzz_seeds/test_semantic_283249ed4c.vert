#version 400
void main() { uint a = 3; float f = a; double d = f; gl_Position = vec4(float(d)); }
