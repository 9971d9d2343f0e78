#version 330
in vec4 v;
layout(location = 0) out uvec4 o;
void main() {
  vec4 a = v * 3.14159 + 2.71828;
  if (v.x > 0.3) a = a * 1234.5 - 3.14159;
  o = floatBitsToUint(a * 0.1234 + vec4(1.1, 2.2, 3.3, 4.4));
}