#version 440
in vec3 a;
in vec2 arr[2];
noperspective in float n;
flat in int k;
layout(location = 0) out uvec4 o;
uniform vec2 off;
void main() {
  o = floatBitsToUint(vec4(interpolateAtOffset(a, off).z, interpolateAtSample(arr[1], k).y,
                           interpolateAtCentroid(n), interpolateAtOffset(arr[k % 2].x, off * 0.5)));
}