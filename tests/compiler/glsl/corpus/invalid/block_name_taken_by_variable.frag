// EXPECT: 0:4(1): error: block name `Params' is already used at global scope
#version 150
float Params;
in Params {
    vec2 uv;
} p;
out vec4 c;
void main() { c = vec4(p.uv, Params, 1.0); }
