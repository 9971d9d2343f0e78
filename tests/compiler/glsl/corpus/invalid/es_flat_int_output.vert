// EXPECT: 0:3(9): error: if a vertex output is (or contains) an integer, then it must be qualified with 'flat'
#version 300 es
out int i;
void main() {}
