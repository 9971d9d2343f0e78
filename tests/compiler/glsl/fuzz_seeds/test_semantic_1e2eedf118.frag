#version 120
void main() { float a[] = float[](1.0, 2.0, 3.0); }
