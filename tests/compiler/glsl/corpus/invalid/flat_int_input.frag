// EXPECT: 0:3(8): error: if a fragment input is (or contains) an integer, then it must be qualified with 'flat'
#version 130
in int i;
void main() {}
