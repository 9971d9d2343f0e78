// EXPECT: 0:6(22): error: sampler arrays indexed with non-constant expressions are forbidden in GLSL 1.30 and later
#version 130
uniform sampler2D s[2];
uniform int i;
void main() {
    vec4 c = texture(s[i], vec2(0.0));
}
