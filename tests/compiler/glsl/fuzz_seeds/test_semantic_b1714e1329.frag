#version 120
float g(float x, float y) { return x; }
void main() { float a = g(1, 2); }
