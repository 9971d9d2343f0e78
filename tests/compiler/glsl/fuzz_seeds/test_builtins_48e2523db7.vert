#version 430
in uvec4 a; in uvec4 b; flat out uvec4 r;
void main() { uint hi, lo; int ihi, ilo; umulExtended(a.x, b.x, hi, lo);
  imulExtended(int(a.y), int(b.y), ihi, ilo); r = uvec4(hi, lo, uint(ihi), uint(ilo)); }