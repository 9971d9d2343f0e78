#version 430
layout(std140, binding = 2) uniform Params { float scale; vec3 offset; } params;
layout(std430, binding = 1) buffer Data { uint count; float values[]; };
in vec4 p; out vec4 o;
void main() { uint i = uint(p.x); o = vec4(values[i] * params.scale + params.offset.y, float(values.length()),
              float(count), 0.0); values[i] = 1.0; gl_Position = p; }