#version 310 es
in highp ivec4 a; in highp ivec4 b; in highp ivec4 c; flat out highp ivec4 r; flat out highp ivec4 s;
void main() { bvec4 m = notEqual(c, ivec4(0));
  r = ivec4(mix(notEqual(a, ivec4(0)), notEqual(b, ivec4(0)), m)); s = mix(a, b, m); }