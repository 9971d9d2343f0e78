#version 330
in vec4 v; flat in int k; noperspective in vec2 w;
layout(location = 0) out uvec4 o;
void main() {
  vec4 d = vec4(dFdx(v.x), dFdy(v.y), fwidth(v.z), 0.0);
  if (v.w < 0.2) discard;
  o = floatBitsToUint(vec4(v.x * 2.0 + float(k), w.y, d.x + d.y + d.z, gl_FragCoord.x + gl_FragCoord.y));
  gl_FragDepth = v.y;
}