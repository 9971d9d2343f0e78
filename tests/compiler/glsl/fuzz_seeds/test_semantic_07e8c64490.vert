#version 120
const float t[3] = float[3](1.0, 2.0, 3.0);
const float x = t[1] * 2.0;
float y[int(x)];
void main() { gl_Position = vec4(y.length()); }
