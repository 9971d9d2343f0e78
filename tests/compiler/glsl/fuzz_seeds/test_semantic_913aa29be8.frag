#version 130
void main() {
 const int a = -7 / 2;
 const int b = -7 % 3;
 const uint c = 0u - 1u;
 const int d = 2147483647 + 1;
}
