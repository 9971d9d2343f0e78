#version 300 es
in vec2 pos;
uniform vec4 shift;
uniform vec4 table[70];
uniform int pick;
uniform vec4 last;
out vec4 col;
void main() { gl_Position = vec4(pos + shift.xy, 0.0, 1.0); col = table[pick] + table[69] * 0.5 + last; }