#version 300 es
precision mediump float;
in vec4 v;
uniform sampler2D a;
uniform mediump samplerCube b;
out vec4 o;
void main() { o = v * texture(a, vec2(0.5)) * texture(b, vec3(1.0)); }
