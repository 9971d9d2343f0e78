#version 120
void main() { float f = 1 + 2.0; }
