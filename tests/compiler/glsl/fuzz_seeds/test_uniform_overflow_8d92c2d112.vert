#version 330
layout(location = 0) in vec4 pos;
uniform vec4 small;
uniform vec4 big[300];
flat out vec4 c;
void main() {
  gl_Position = pos;
  c = big[gl_VertexID * 7 + 1] + small;
}