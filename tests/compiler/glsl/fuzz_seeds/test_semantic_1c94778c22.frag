#version 430
void main() { float[2] a[3]; int n = a.length() * 10 + a[0].length(); }
