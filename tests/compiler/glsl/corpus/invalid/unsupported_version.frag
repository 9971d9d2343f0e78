// EXPECT: 0:2(10): error: GLSL 4.70 is not supported. Supported versions are: 1.10, 1.20, 1.30, 1.40, 1.50, 3.30, 4.00, 4.10, 4.20, 4.30, 4.40, 4.50, 4.60, 1.00 ES, 3.00 ES, 3.10 ES, 3.20 ES
#version 470
void main() {}
