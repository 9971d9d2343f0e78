#version 330
struct Light { vec3 pos; float power; };
uniform float f; uniform vec3 v3; uniform mat3 m3; uniform Light lights[2]; uniform int arr[3];
uniform vec4 big[20];
in vec4 p;
out vec4 o;
void main() { o = vec4(f) + vec4(v3, 0.0) + vec4(m3[2], 1.0) + vec4(lights[1].pos * lights[1].power, 0.0)
              + vec4(float(arr[2])) + big[int(p.x)]; gl_Position = p; }
