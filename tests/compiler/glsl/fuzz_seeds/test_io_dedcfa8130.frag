#version 440
in vec4 a;
noperspective in vec2 arr[3];
out vec4 o;
uniform int i;
void main() { o = interpolateAtOffset(a, vec2(0.25)) + interpolateAtSample(arr[i], 2).xyxy
                  + interpolateAtCentroid(a.w); }
