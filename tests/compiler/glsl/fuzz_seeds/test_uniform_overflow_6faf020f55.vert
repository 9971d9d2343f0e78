#version 330
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 col;
uniform vec4 table[60];
uniform mat4 mvp;
uniform vec4 tint;
uniform float scale;
out vec4 c;
void main() {
  gl_Position = mvp * pos;
  c = col * tint * scale + table[7] + table[59];
}