// EXPECT: 0:6(42): error: parameter `offset' must be a constant expression
#version 130
uniform sampler2D s;
uniform ivec2 o;
void main() {
    vec4 c = textureOffset(s, vec2(0.0), o);
}
