#version 120
float f(float x) { return x; }
int f(int x) { return x; }
void main() { float a = f(1); float b = f(1.0); }
