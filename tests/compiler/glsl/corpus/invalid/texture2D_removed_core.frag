// EXPECT: 0:6(9): error: no function with name 'texture2D'
#version 420 core
uniform sampler2D s;
out vec4 c;
void main() {
    c = texture2D(s, vec2(0.0));
}
