#version 430
layout(location = 0) in vec4 p;
out vec4 arr[3];
void main() {
  gl_Position = p;
  for (int i = 0; i < 3; i++) arr[i] = vec4(float(i));
  arr[gl_VertexID % 3] = p * 2.0;
}