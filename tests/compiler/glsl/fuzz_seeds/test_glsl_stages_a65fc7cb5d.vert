#version 330
layout(location = 0) in vec4 pos;
layout(location = 2) in vec2 uv;
uniform mat4 mvp;
uniform float scale;
out vec2 t;
flat out int id;
void main() {
  gl_Position = mvp * pos;
  t = uv * scale;
  id = gl_VertexID * 3;
}