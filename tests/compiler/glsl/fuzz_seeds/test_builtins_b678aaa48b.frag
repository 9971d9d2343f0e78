#version 330
uniform sampler2D s;
out vec4 c;
void main() { c = texture(s, vec2(0.5)) + vec4(sin(1.0)); }
