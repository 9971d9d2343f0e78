#version 300 es
precision mediump float;
in vec2 v_uv;
uniform vec4 tint;
uniform sampler2D tex;
uniform struct L { vec3 dir; int n; } light;
out vec4 color;
void main() { color = texture(tex, v_uv) * tint + vec4(light.dir, float(light.n)); }
