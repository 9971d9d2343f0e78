// EXPECT: 0:5(14): error: image variable `img' is writeonly; imageLoad is not allowed
#version 420
writeonly uniform image2D img;
void main() {
    vec4 v = imageLoad(img, ivec2(0));
}
