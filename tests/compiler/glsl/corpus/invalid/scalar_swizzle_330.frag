// EXPECT: 0:5(14): error: scalar swizzles require GLSL 4.20
#version 330
void main() {
    float f = 1.0;
    vec2 v = f.xx;
}
